"""New languages from treebanks: Italian, Spanish and Dutch pipelines trained here, scored on
their UD test files, then MEANTIME run end to end in each language.

    nice -n 10 .venv/bin/python bench/languages.py [--languages it es nl] [--reuse]
        [--minutes it=12 es=6 nl=6]

Per language: `parawire nlp train-pipeline`'s work (into models/<lang>, git-ignored; --reuse
keeps a pipeline already there), its UD test scores (UPOS, lemma, UAS/LAS, sentence F1),
annotation throughput of parawire's annotator against plain nlp.pipe on the same pipeline
(same process, MEANTIME's texts), then MEANTIME's articles in that language served as a
three-outlet news site, crawled, annotated, indexed, aligned and exported (demo/meantime.py
says how outlets and dates are assigned), with 10 pairs printed to be read.

Training data (the only UD files here): Italian trains on ParTUT train + ISDT dev, picks its
best model on ParTUT dev and is scored on ParTUT test; Spanish (GSD) and Dutch (LassySmall)
train on their dev file, pick on a tenth of it held out, and are scored on test.
Alignment: a date window covering the whole collection (MEANTIME's articles span
2005-2010, few share a week), with min_CN = min_PN = 2 (exported), and at the paper's
criteria (min_CN = min_PN = 3, α = β = 0.7). Results go to bench/results/languages.json.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.nlp import SpacyAnnotator, evaluate_pipeline, train_pipeline
from parawire.records import Article
from parawire.roof.demo_run import run_meantime
from parawire.roof.pipeline import run_stage

UD = SHARED_DATA / "ud"
TREEBANKS = {
    "it": ([UD / "it_partut/it_partut-ud-train.conllu", UD / "it_isdt/it_isdt-ud-dev.conllu"],
           UD / "it_partut/it_partut-ud-dev.conllu", UD / "it_partut/it_partut-ud-test.conllu"),
    "es": ([UD / "es_gsd/es_gsd-ud-dev.conllu"], None, UD / "es_gsd/es_gsd-ud-test.conllu"),
    "nl": ([UD / "nl_lassysmall/nl_lassysmall-ud-dev.conllu"], None,
           UD / "nl_lassysmall/nl_lassysmall-ud-test.conllu"),
}
MODELS = Path(__file__).resolve().parents[1] / "models"
WHOLE_COLLECTION_DAYS = 4000
PAIRS_TO_READ = 10
ROUNDS = 3


def throughput(model: Path, language: str) -> dict:
    """Seconds of parawire's annotator and of plain nlp.pipe over MEANTIME's texts (best of
    ROUNDS each)."""
    rows = [json.loads(line) for line in
            (SHARED_DATA / "meantime" / f"{language}.jsonl").read_text().splitlines()]
    texts = [" ".join(row["sentences"][1:]) for row in rows]
    articles = [Article(url=f"http://x/{k}", source="s", language=language, title="",
                        text=text, published=None, id=k + 1) for k, text in enumerate(texts)]
    annotator = SpacyAnnotator(str(model), language)
    plain = ours = float("inf")
    for _ in range(ROUNDS):  # interleaved, best of each: the machine is shared
        started = time.perf_counter()
        list(annotator.nlp.pipe(texts, batch_size=64))
        plain = min(plain, time.perf_counter() - started)
        started = time.perf_counter()
        list(annotator.annotate(articles))
        ours = min(ours, time.perf_counter() - started)
    return {"articles": len(texts), "plain_pipe_s": round(plain, 2),
            "annotator_s": round(ours, 2), "ratio_vs_plain": round(plain / ours, 3)}


def mine(model: Path, language: str) -> dict:
    """MEANTIME end to end in one language with min_CN = min_PN = 2 (an export needs pairs),
    then an alignment run at the paper's criteria over the same index."""
    data = Path(tempfile.mkdtemp(prefix=f"meantime-{language}-"))
    models = {"models": {language: str(model)}}
    # The window search: MEANTIME's articles span years, so stories of a few days hold
    # almost none of its pairs.
    loose = load_settings(data_dir=data, nlp=models, align={
        "date_window_days": WHOLE_COLLECTION_DAYS, "min_cn": 2, "min_pn": 2,
        "within": "window"})
    counts = run_meantime(loose, SHARED_DATA / "meantime", language)
    paper = load_settings(data_dir=data, nlp=models,
                          align={"date_window_days": WHOLE_COLLECTION_DAYS, "within": "window"})
    paper_align = run_stage(paper, "align")
    pairs: dict[tuple[str, str], dict] = {}
    for split in ("train", "valid", "test"):
        for line in (Path(counts["export"]["path"]) / f"{split}.jsonl").read_text().splitlines():
            row = json.loads(line)
            if not row["flipped"] and len(pairs) < PAIRS_TO_READ:
                pairs.setdefault((row["input"], row["target"]), {
                    "input": row["input"], "target": row["target"], "score": row["score"],
                    "shared_pn": row["shared_pn"], "shared_cn": row["shared_cn"],
                    "grade": row["grade"], "direction": row["direction"],
                    "probability": row["probability"]})
    return {"articles": counts["crawl"].get("stored", 0),
            "sentences": counts["annotate"].get("sentences", 0),
            "paper_criteria": {"references": paper_align.get("references_done", 0),
                               "pairs": paper_align.get("pairs", 0)},
            "min_2_2": {"references": counts["align"].get("references_done", 0),
                        "pairs": counts["align"].get("pairs", 0),
                        "exported": counts["export"]["examples"]},
            "pairs_to_read": list(pairs.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--languages", nargs="+", default=list(TREEBANKS))
    parser.add_argument("--minutes", nargs="+", default=["it=12", "es=6", "nl=6"])
    parser.add_argument("--reuse", action="store_true", help="Keep pipelines in models/.")
    args = parser.parse_args()
    minutes = {k: float(v) for k, v in (item.split("=") for item in args.minutes)}
    settings = load_settings()
    result: dict = {"machine": "shared 2-core machine, run with nice -n 10", "languages": {}}
    for language in args.languages:
        train, dev, test = TREEBANKS[language]
        model = MODELS / language
        entry: dict = {"train": [p.name for p in train], "dev": dev.name if dev else "1/10 of train",
                       "test": test.name}
        if not (args.reuse and (model / "meta.json").is_file()):
            trained = train_pipeline(language, train, dev, model, settings.nlp.training,
                                     minutes.get(language, 6))
            entry["training"] = {"minutes": round(trained.minutes, 2), "stopped": trained.stopped,
                                 "train_sentences": trained.train_sentences,
                                 "dev_sentences": trained.dev_sentences}
        else:
            entry["training"] = json.loads((model / "meta.json").read_text())["parawire"]
        entry["test_scores"] = evaluate_pipeline(model, test,
                                                 settings.nlp.training.sentences_per_doc).as_dict()
        entry["throughput"] = throughput(model, language)
        entry["meantime"] = mine(model, language)
        result["languages"][language] = entry
        print(json.dumps({language: entry}, indent=2, ensure_ascii=False), flush=True)
    report("languages", result)


if __name__ == "__main__":
    main()
