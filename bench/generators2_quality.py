"""DiPS, over-generate-and-prune and rank-many against plain beam, from the same forward and
backward models as bench/generators_quality.py (train them as its docstring says), on the same
held-out data: the export's test split (ECB+) and MSRP val positives.

    nice -n 10 .venv/bin/python bench/generators2_quality.py --forward runs/fwd/best.pt \\
        --backward runs/bwd/best.pt --tune-limit 12 --ecb-limit 15 --msrp-limit 15

DiPS's λ is swept (0.2–0.5) on the forward model's validation split (--tune-limit inputs):
the λ kept is the one with the highest distinct-2 whose mean USE cosine to the input stays
within 0.05 of the sweep's best cosine; the test sets are scored with it. Tables (markdown):
diversity/fidelity per generator, the λ curve, what each prune step/filter removed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from common import report
from generators_quality import msrp_positives

from parawire.config import load_settings
from parawire.roof.generate import generators_of, judges_of, sources_of
from parawire.trainer import Example, evaluate_generators, read_examples, tokenize
from parawire.trainer.generators import metrics as m
from parawire.trainer.generators.dips import DipsGenerator

GENERATORS = ["beam", "dips", "overgen", "rank"]
WEIGHTS = [0.2, 0.3, 0.4, 0.5]


def sweep(dips: DipsGenerator, examples: list[Example], n: int, similarity: Any) -> list[dict[str, Any]]:
    """DiPS at each λ over the same beams (decoded once): distinct-2, pairwise 1−BLEU among
    outputs and mean USE cosine to the input."""
    pools = [dips.hypotheses(e.source) for e in examples]
    curve = []
    for weight in WEIGHTS:
        chosen = DipsGenerator(dips.model, dips.options, dips.config.model_copy(update={"weight": weight}))
        outputs = [chosen.select(e.source, pool, n) for e, pool in zip(examples, pools, strict=True)]
        tokens = [[c.tokens for c in cands] for cands in outputs if cands]
        cosines = similarity([(e.source.text, c.text) for e, cands in zip(examples, outputs, strict=True)
                              for c in cands])
        curve.append({"weight": weight,
                      "distinct_2": round(sum(m.distinct_n(t, 2) for t in tokens) / len(tokens), 4),
                      "pairwise_one_minus_bleu": round(sum(m.pairwise(t, m.one_minus_bleu) for t in tokens)
                                                       / len(tokens), 2),
                      "use_cosine": round(sum(cosines) / len(cosines), 4)})
    return curve


def pick(curve: list[dict[str, Any]]) -> float:
    """The λ with the best distinct-2 among those within 0.05 of the best USE cosine."""
    best = max(point["use_cosine"] for point in curve)
    return max((p for p in curve if p["use_cosine"] >= best - 0.05), key=lambda p: p["distinct_2"])["weight"]


def tables(scores: dict[str, Any]) -> str:
    """Diversity/fidelity per generator, then each composite's pool table (markdown)."""
    lines = ["| generator | distinct-1 | distinct-2 | pairwise 1−BLEU | 1−BLEU vs input | ∩/∪ vs input "
             "| USE cos (all) | USE cos top-1 | preserved | outputs/input | s/input | CPU s/input |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in scores.items():
        among, vs = r["among_outputs"], r["vs_input"]
        top = r["per_rank"][0] if r["per_rank"] else {}
        lines.append(f"| {name} | {among['distinct_1']} | {among['distinct_2']} | "
                     f"{among['pairwise_one_minus_bleu']} | {vs['one_minus_bleu']} | {vs['bow_iou']} | "
                     f"{vs['use_cosine']} | {top.get('use_cosine')} | {vs['preservation']} | "
                     f"{r['outputs_per_input']} | {r['seconds_per_input']} | {r['cpu_seconds_per_input']} |")
    for name, r in scores.items():
        if "pool" in r:
            lines += ["", f"{name}: " + ", ".join(f"{k} {v}" for k, v in r["pool"].items())]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> None:
    settings = load_settings(None, train={"threads": args.threads})
    names = list(dict.fromkeys(["dips", *args.generators.split(",")]))
    built, models = generators_of(settings, names, args.forward, args.backward, "cpu")
    judges = judges_of(models)
    by_name = dict(zip(names, built, strict=True))
    generators = [by_name[name] for name in args.generators.split(",")]
    result: dict[str, Any] = {"forward": str(args.forward), "backward": str(args.backward),
                              "n": args.n, "seed": args.seed, "threads": args.threads}
    tune = read_examples(models.forward.corpus, "valid", args.tune_limit,
                         lambda texts: sources_of(settings, texts, annotate=True))
    result["lambda_curve"] = sweep(by_name["dips"], tune, args.n, models.similarity)
    weight = pick(result["lambda_curve"])
    result["lambda"] = weight
    by_name["dips"].config = by_name["dips"].config.model_copy(update={"weight": weight})
    print(result["lambda_curve"], "λ =", weight)
    ecb = read_examples(models.forward.corpus, "test", args.ecb_limit,
                        lambda texts: sources_of(settings, texts, annotate=True))
    msrp = msrp_positives("msr-para-val.tsv")[:args.msrp_limit]
    msrp_sources = sources_of(settings, [a for a, _ in msrp], annotate=True)
    data = {"ecbplus_test": ecb,
            "msrp_val_positives": [Example(s, tokenize(b)) for s, (_, b) in zip(msrp_sources, msrp,
                                                                                 strict=True)]}
    for name, examples in data.items():
        for generator in generators:  # pool tables per data set
            if hasattr(generator, "counts"):
                generator.counts.clear()
        started = time.perf_counter()
        scores = evaluate_generators(generators, examples, args.n, args.seed, judges)
        result[name] = {"inputs": len(examples), "seconds": round(time.perf_counter() - started, 1),
                        "generators": scores, "table": tables(scores)}
        print(name, "\n" + result[name]["table"])
    report("generators2_quality", result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forward", type=Path, required=True)
    parser.add_argument("--backward", type=Path, required=True)
    parser.add_argument("-n", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tune-limit", type=int, default=12)
    parser.add_argument("--ecb-limit", type=int, default=15)
    parser.add_argument("--msrp-limit", type=int, default=15)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--generators", default=",".join(GENERATORS),
                        help="Comma-separated subset (dips is always built: the λ sweep).")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
