"""Beam vs sample-and-cluster (ParaBank 2) from the same forward model: diversity, fidelity,
per-rank table and seconds per input, on the ECB+ export's test split and MSRP val positives.

    # 1. the training corpus: ECB+ export train/valid + MSRP train positives (both directions;
    #    a tenth of them held out as validation, where the dual-score threshold is set)
    .venv/bin/python bench/ecbplus_corpus.py --out data/ecbplus-corpus
    .venv/bin/python bench/generators_quality.py prepare --ecb data/ecbplus-corpus \\
        --out data/generators-corpus
    # 2. forward and backward models (sizes of the run reported in the note)
    parawire train --corpus data/generators-corpus --out runs/fwd --epochs 6 --embedding 64 \\
        --hidden 128 --vocab-size 8000 --threads 1
    parawire train --direction backward --corpus data/generators-corpus --out runs/bwd ...
    # 3. the comparison
    .venv/bin/python bench/generators_quality.py run --forward runs/fwd/best.pt \\
        --backward runs/bwd/best.pt --msrp-limit 100

Sources are annotated by parawire's spaCy annotator (its names are kept and cased); tree
edit distance parses with the same spaCy model. MSRP's test split is never read.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.roof.generate import generators_of, judges_of, sources_of
from parawire.trainer import Example, evaluate_generators, tokenize
from parawire.trainer.generators.metrics import DependencyTree

GENERATORS = ["beam", "sample-cluster"]


def msrp_positives(name: str) -> list[tuple[str, str]]:
    """(#1, #2) strings of the pairs labelled paraphrase in one MSRP file."""
    with (SHARED_DATA / "msrp" / name).open(encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [(row[3], row[4]) for row in rows[1:] if row[0] == "1"]


def prepare(ecb: Path, out: Path, seed: int) -> dict[str, int]:
    """Write train/valid/test.jsonl: ECB+ splits, plus MSRP train positives in both directions
    (a tenth held out into valid); test is the ECB+ test split only."""
    positives = msrp_positives("msr-para-train.tsv")
    random.Random(seed).shuffle(positives)
    cut = len(positives) // 10

    def both_ways(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return pairs + [(b, a) for a, b in pairs]

    def ecb_split(split: str) -> list[tuple[str, str]]:
        rows = [json.loads(line) for line in (ecb / f"{split}.jsonl").open(encoding="utf-8")]
        return [(r["input"], r["target"]) for r in rows]

    splits = {"train": ecb_split("train") + both_ways(positives[cut:]),
              "valid": ecb_split("valid") + both_ways(positives[:cut]), "test": ecb_split("test")}
    out.mkdir(parents=True, exist_ok=True)
    for name, pairs in splits.items():
        (out / f"{name}.jsonl").write_text("".join(
            json.dumps({"input": a, "target": b}, ensure_ascii=False) + "\n" for a, b in pairs))
    return {name: len(pairs) for name, pairs in splits.items()}


def spacy_parser(model: str) -> Callable[[Sequence[str]], list[DependencyTree]]:
    """Dependency trees of texts by a spaCy model (heads as token indices in the text)."""
    import spacy

    nlp = spacy.load(model, disable=["ner", "lemmatizer"])

    def parse(texts: Sequence[str]) -> list[DependencyTree]:
        return [DependencyTree(tuple(t.head.i for t in doc), tuple(t.dep_ for t in doc))
                for doc in nlp.pipe(texts, batch_size=64)]

    return parse


def rank_table(results: dict[str, Any]) -> str:
    """ParaBank-style per-rank table (markdown): 1−BLEU and ∩/∪ vs the input, USE cosine,
    preservation, per generator and rank."""
    lines = ["| generator | rank | 1−BLEU ×100 vs input | ∩/∪ vs input | USE cos | preserved |",
             "|---|---|---|---|---|---|"]
    for name, result in results.items():
        for rank, row in enumerate(result["per_rank"], start=1):
            lines.append(f"| {name} | {rank} | {row['one_minus_bleu']} | {row['bow_iou']} | "
                         f"{row['use_cosine']} | {row['preservation']} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    settings = load_settings(None, generate={"threads": args.threads})
    generators, models = generators_of(settings, GENERATORS, args.forward, args.backward, "cpu")
    judges = judges_of(models)
    judges.parser = spacy_parser(settings.nlp.models["en"])
    corpus = models.forward.corpus
    ecb = [json.loads(line) for line in (corpus / "test.jsonl").open(encoding="utf-8")]
    data = {"ecbplus_test": [(r["input"], r["target"]) for r in ecb][:args.ecb_limit],
            "msrp_val_positives": msrp_positives("msr-para-val.tsv")[:args.msrp_limit]}
    result: dict[str, Any] = {"forward": str(args.forward), "backward": str(args.backward),
                              "corpus": str(corpus), "n": args.n, "seed": args.seed,
                              "threads": args.threads, "threshold": generators[1].threshold}
    for name, pairs in data.items():
        if not pairs:
            continue
        started = time.perf_counter()
        sources = sources_of(settings, [a for a, _ in pairs], annotate=True)
        examples = [Example(s, tokenize(b)) for s, (_, b) in zip(sources, pairs, strict=True)]
        scores = evaluate_generators(generators, examples, args.n, args.seed, judges)
        result[name] = {"inputs": len(examples), "seconds": round(time.perf_counter() - started, 1),
                        "generators": scores, "rank_table": rank_table(scores)}
        report("generators_quality", result)  # after each data set: a long run keeps its parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="Write the training corpus.")
    prep.add_argument("--ecb", type=Path, required=True, help="ECB+ export (ecbplus_corpus.py).")
    prep.add_argument("--out", type=Path, required=True)
    prep.add_argument("--seed", type=int, default=13)
    go = sub.add_parser("run", help="Compare the generators.")
    go.add_argument("--forward", type=Path, required=True)
    go.add_argument("--backward", type=Path, required=True)
    go.add_argument("-n", type=int, default=5)
    go.add_argument("--seed", type=int, default=1)
    go.add_argument("--ecb-limit", type=int, default=None)
    go.add_argument("--msrp-limit", type=int, default=100)
    go.add_argument("--threads", type=int, default=1, help="torch threads (generate.threads).")
    args = parser.parse_args()
    if args.command == "prepare":
        print(json.dumps(prepare(args.ecb, args.out, args.seed)))
    else:
        run(args)


if __name__ == "__main__":
    main()
