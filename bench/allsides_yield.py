"""Yield on real multi-outlet news: a window of AllSides days, annotated, indexed, aligned.

    nice -n 10 .venv/bin/python bench/allsides_yield.py [--articles 500] [--align '{...}']

Takes the articles of consecutive days (from a seeded start among the days four or more
outlets reported on) until --articles are reached, runs annotate, index, stories and align with the
default [align] and with each --align JSON of overrides, and reports pairs per 1,000
sentences with the run's counts. A seeded sample of kept pairs (--sample per run) is
written to bench/results/<name>_sample_<run>.jsonl for reading. The annotated and indexed
window is kept under bench/.cache/ and copied for each invocation (its runs start afresh).

--diagnose repeats each run with the length check, the pair filters and the scorer's cut off
(every candidate past the near-verbatim check stored with its signals and probability), and
sorts those pairs by the step of the run's own settings that drops them (the filter's
reason, below_probability, or kept): counts per step, and a seeded sample of each step's
pairs in bench/results/<name>_dropped_<run>.jsonl. A quotation covering every word of the
shorter side stays dropped as quote_copy there (max_quote_share cannot exceed 1).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import tempfile
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path
from typing import Any

from common import RESULTS, SHARED_DATA, build_corpus, report

from parawire.aligner.filters import drop_reason
from parawire.config import Settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of

FILTERS_OFF = {"min_length_ratio": 0.0, "min_probability": 0.0, "max_quote_share": 1.0,
               "max_novel_share": 1.0, "max_added_words": 10**6, "drop_mismatches": False}


def window(size: int, seed: int) -> list[dict]:
    """Articles of consecutive days from a seeded busy day on, `size` of them."""
    by_day: dict[str, list[dict]] = defaultdict(list)
    with gzip.open(SHARED_DATA / "allsides" / "articles.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            article = json.loads(line)
            if article["date"] and article["text"]:
                by_day[article["date"]].append(article)
    days = sorted(by_day)
    busy = [d for d in days if len({a["outlet"] for a in by_day[d]}) >= 4]
    start = days.index(random.Random(seed).choice(busy[: len(busy) // 2]))
    chosen: list[dict] = []
    for day in days[start:]:
        chosen += sorted(by_day[day], key=lambda a: a["id"])
        if len(chosen) >= size:
            break
    return chosen[:size]


def annotated_window(articles: list[dict], cache: Path) -> tuple[Settings, dict]:
    """The window annotated and indexed in a fresh data dir: a copy of the cached one, or
    built and then cached."""
    data_dir = Path(tempfile.mkdtemp(prefix="parawire-bench-"))
    if (cache / "built").is_file():
        shutil.copytree(cache, data_dir, dirs_exist_ok=True)
    result = build_corpus(
        ((a["url"] or a["id"], a["outlet"], f"{a['title']}\n{a['text']}",
          date.fromisoformat(a["date"])) for a in articles), data_dir=data_dir)
    if not (cache / "built").is_file():
        shutil.copytree(data_dir, cache, dirs_exist_ok=True)
        (cache / "built").touch()
    return result


def diagnosis(settings: Settings, overrides: dict[str, Any], text: dict[int, str],
              seed: int, sample: int, path: Path) -> dict[str, int]:
    """The run's candidates past the near-verbatim check, by the step of the
    run's settings that drops them; a sample of each step's pairs is written to `path`."""
    align = settings.align.model_copy(update=overrides)
    run = run_stage(settings.model_copy(
        update={"align": align.model_copy(update=FILTERS_OFF)}), "align")
    store = store_of(settings)
    pairs = store.pairs(run["run_id"])
    sentences = store.sentences_by_id(
        i for p in pairs for i in (p.input_sentence_id, p.target_sentence_id))
    by_step: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pair in pairs:
        a, b = sentences[pair.input_sentence_id], sentences[pair.target_sentence_id]
        step = drop_reason(a, b, pair.features, max_quote_share=align.max_quote_share,
                           max_novel_share=align.max_novel_share,
                           max_added_words=align.max_added_words,
                           drop_mismatches=align.drop_mismatches)
        if pair.features["length_ratio"] < align.min_length_ratio:
            step = "length_ratio"  # the run checks the length before the filters
        elif step is None:
            step = ("below_probability" if (pair.probability or 0.0) < align.min_probability
                    else "kept")
        by_step[step].append({"step": step, "input": text[a.id], "target": text[b.id],
                              "probability": pair.probability, "signals": pair.features})
    with path.open("w") as out:
        for step in sorted(by_step):
            rows = by_step[step]
            for row in random.Random(seed).sample(rows, min(sample, len(rows))):
                out.write(json.dumps(row) + "\n")
    return dict(Counter({step: len(rows) for step, rows in by_step.items()}).most_common())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--align", action="append", default=[],
                        help="JSON object of [align] overrides for one more run")
    parser.add_argument("--name", default="allsides_yield")
    parser.add_argument("--diagnose", action="store_true",
                        help="sort each run's candidates by the step that drops them")
    args = parser.parse_args()
    articles = window(args.articles, args.seed)
    settings, by_url = annotated_window(
        articles, RESULTS.with_name(".cache") / f"allsides_{args.articles}_{args.seed}")
    stories = run_stage(settings, "stories")  # align.within = "story" searches inside them
    sentences = sum(len(s) for s in by_url.values())
    text = {s.id: s.text for group in by_url.values() for s in group}
    runs = {}
    RESULTS.mkdir(exist_ok=True)
    for k, overrides in enumerate([{}, *(json.loads(o) for o in args.align)]):
        run_settings = settings.model_copy(
            update={"align": settings.align.model_copy(update=overrides)})
        run = run_stage(run_settings, "align")
        pairs = store_of(settings).pairs(run["run_id"])
        name = f"run{k}"
        # the same text pair from two copies of a wire story counts once here
        distinct = len({frozenset((text[p.input_sentence_id], text[p.target_sentence_id]))
                        for p in pairs})
        runs[name] = {"criteria": overrides or "defaults", "pairs": len(pairs),
                      "pairs_per_1000_sentences": round(1000 * len(pairs) / sentences, 2),
                      "distinct_text_pairs": distinct, "counts": run}
        if args.diagnose:
            runs[name]["candidates_by_step"] = diagnosis(
                settings, overrides, text, args.seed, args.sample,
                RESULTS / f"{args.name}_dropped_{name}.jsonl")
        sample = random.Random(args.seed).sample(pairs, min(args.sample, len(pairs)))
        with (RESULTS / f"{args.name}_sample_{name}.jsonl").open("w") as out:
            for pair in sample:
                out.write(json.dumps({"input": text[pair.input_sentence_id],
                                      "target": text[pair.target_sentence_id],
                                      "score": pair.score,
                                      "probability": getattr(pair, "probability", None)}) + "\n")
    report(args.name, {"articles": len(articles), "first_day": articles[0]["date"],
                       "last_day": articles[-1]["date"],
                       "outlets": len({a["outlet"] for a in articles}),
                       "sentences": sentences, "stories": stories,
                       "story_counts": store_of(settings).story_counts(), "runs": runs})


if __name__ == "__main__":
    main()
