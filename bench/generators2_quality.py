"""DiPS, over-generate-and-prune and rank-many against plain beam, from the same forward and
backward models as bench/generators_quality.py (train them as its docstring says), on the same
held-out data: the export's test split (ECB+) and MSRP val positives.

    nice -n 10 .venv/bin/python bench/generators2_quality.py --forward runs/fwd/best.pt \\
        --backward runs/bwd/best.pt --tune-limit 12 --ecb-limit 15 --msrp-limit 15 \\
        --chains "wordnet>beam,apertium>wordnet"

Tuned on the forward model's validation split (--tune-limit inputs), never on the reported
sets: DiPS's λ is swept (0.2–0.5) and the one with the highest distinct-2 whose mean USE
cosine to the input stays within 0.05 of the sweep's best is kept; overgen's backward-NLL
bound is the --nll-quantile of the gold pairs' backward NLL there. Reported on the test sets.
Tables (markdown): diversity/fidelity per generator, the λ curve, what each rank filter
removed, and for overgen the Berro-style tables: what each prune step removes and each
single source (and chain, --chains adds them to overgen's sources) against the
combination, from one pool decoded once. Speed: CPU seconds per input (this process and its
children, e.g. apertium) at --threads, and the composites' ratio against --baseline-threads
on the first --speed-limit inputs, in the same process.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from common import report
from generators_quality import msrp_positives

from parawire.config import load_settings
from parawire.roof.generate import generators_of, judges_of, sources_of
from parawire.trainer import Example, Judges, evaluate_generators, read_examples, tokenize
from parawire.trainer.generators import metrics as m
from parawire.trainer.generators.dips import DipsGenerator, keeping_names
from parawire.trainer.generators.evaluation import cpu_seconds
from parawire.trainer.generators.evaluation import report as score
from parawire.trainer.generators.overgen import OverGenerate, pool_batch
from parawire.trainer.generators.prune import STEPS
from parawire.trainer.generators.selection import quantile
from parawire.trainer.training import set_threads

GENERATORS = ["beam", "dips", "overgen", "rank"]
WEIGHTS = [0.2, 0.3, 0.4, 0.5]


def sweep(dips: DipsGenerator, examples: list[Example], n: int, similarity: Any) -> list[dict[str, Any]]:
    """DiPS at each λ over the same beams (decoded once, keep_names applied): distinct-2,
    pairwise 1−BLEU among outputs and mean USE cosine to the input."""
    pools = [keeping_names(e.source, dips.hypotheses(e.source), dips.config.keep_names)
             for e in examples]
    curve = []
    for weight in WEIGHTS:
        chosen = DipsGenerator(dips.model, dips.options, dips.config.model_copy(update={"weight": weight}))
        outputs = [chosen.select(e.source, pool, n) for e, pool in zip(examples, pools, strict=True)]
        tokens = [[c.tokens for c in cands] for cands in outputs if cands]
        cosines = similarity([(e.source.text, c.text) for e, cands in zip(examples, outputs, strict=True)
                              for c in cands])
        count = max(1, len(tokens))  # no outputs at all (keep_names "all"): zeros
        curve.append({"weight": weight, "outputs_per_input": round(len(cosines) / len(examples), 2),
                      "distinct_2": round(sum(m.distinct_n(t, 2) for t in tokens) / count, 4),
                      "pairwise_one_minus_bleu": round(sum(m.pairwise(t, m.one_minus_bleu) for t in tokens)
                                                       / count, 2),
                      "use_cosine": round(sum(cosines) / max(1, len(cosines)), 4)})
    return curve


def pick(curve: list[dict[str, Any]]) -> float:
    """The λ with the best distinct-2 among those within 0.05 of the best USE cosine."""
    best = max(point["use_cosine"] for point in curve)
    return max((p for p in curve if p["use_cosine"] >= best - 0.05), key=lambda p: p["distinct_2"])["weight"]


def backward_bound(models: Any, examples: list[Example], q: float) -> float:
    """The q-quantile of the gold pairs' backward NLL (input given reference)."""
    nll = models.backward.mean_nll([(e.reference, e.source.model_tokens) for e in examples])
    return round(quantile(nll, q), 3)


def berro(overgen: OverGenerate, examples: list[Example], n: int, seed: int,
          judges: Judges) -> list[dict[str, Any]]:
    """Overgen's pool decoded once, pruned per single source and all together: per row the
    pooled count, what each prune step removed, what was kept, and the outputs' scores; the
    seconds per input are the row's sources' CPU seconds plus its pruning."""
    sources = [e.source for e in examples]
    seconds: Counter[str] = Counter()
    pools = pool_batch(overgen.sources, sources, overgen.per_source, seed, seconds)
    subsets = [[j] for j in range(len(overgen.sources))]
    subsets += [list(range(len(overgen.sources)))] if len(overgen.sources) > 1 else []
    rows = []
    for subset in subsets:
        chosen = OverGenerate([overgen.sources[j] for j in subset], overgen.per_source,
                              overgen.similarity, overgen.thresholds, overgen.backward)
        outputs = [chosen.choose(source, [groups[j] for j in subset], n)
                   for source, groups in zip(sources, pools, strict=True)]
        r = score(examples, outputs, n, judges)
        names = [overgen.sources[j].name for j in subset]
        pool = chosen.pool_report()
        cpu = sum(seconds[name] for name in names) + chosen.seconds["prune"]
        rows.append({"source": "all" if len(subset) > 1 else names[0], "pooled": pool["pooled"],
                     **{step: pool[f"removed_{step}"] for step in STEPS}, "kept": pool["kept"],
                     "outputs_per_input": r["outputs_per_input"],
                     "distinct_2": r["among_outputs"]["distinct_2"],
                     "pairwise_one_minus_bleu": r["among_outputs"]["pairwise_one_minus_bleu"],
                     "use_cosine": r["vs_input"]["use_cosine"],
                     "preservation": r["vs_input"]["preservation"],
                     "cpu_seconds_per_input": round(cpu / max(1, len(examples)), 3)})
    return rows


def berro_tables(rows: list[dict[str, Any]]) -> str:
    """The prune-step table and the single-source-vs-combination table (markdown)."""
    lines = ["| source | pooled | " + " | ".join(STEPS) + " | kept |",
             "|---|---|" + "---|" * len(STEPS) + "---|"]
    lines += [f"| {r['source']} | {r['pooled']} | " + " | ".join(str(r[s]) for s in STEPS)
              + f" | {r['kept']} |" for r in rows]
    lines += ["", "| source | kept | outputs/input | distinct-2 | pairwise 1−BLEU | USE cos "
              "| preserved | CPU s/input |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['source']} | {r['kept']} | {r['outputs_per_input']} | {r['distinct_2']} | "
              f"{r['pairwise_one_minus_bleu']} | {r['use_cosine']} | {r['preservation']} | "
              f"{r['cpu_seconds_per_input']} |" for r in rows]
    return "\n".join(lines)


def speed(generators: list[Any], examples: list[Example], n: int, seed: int, threads: int,
          baseline: int) -> dict[str, Any]:
    """CPU seconds per input of each generator at `baseline` torch threads and at `threads`,
    same inputs, same process (the ratio is baseline / threads)."""
    sources = [e.source for e in examples]
    out: dict[str, Any] = {}
    for generator in generators:
        row = {}
        for count in (baseline, threads):
            set_threads(count)
            started = cpu_seconds()
            generator.generate_batch(sources, n, seed)
            row[f"threads_{count}"] = round((cpu_seconds() - started) / max(1, len(sources)), 3)
        row["ratio"] = round(row[f"threads_{baseline}"] / max(1e-9, row[f"threads_{threads}"]), 2)
        out[generator.name] = row
    return out


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
    defaults = load_settings(None)
    chains = [c.strip() for c in args.chains.split(",") if c.strip()]
    settings = load_settings(None, generate={
        "threads": args.threads, "overgen": {"sources": defaults.generate.overgen.sources + chains}})
    names = list(dict.fromkeys(["dips", *args.generators.split(",")]))
    built, models = generators_of(settings, names, args.forward, args.backward, "cpu")
    judges = judges_of(models)
    by_name = dict(zip(names, built, strict=True))
    generators = [by_name[name] for name in args.generators.split(",")]
    result: dict[str, Any] = {"forward": str(args.forward), "backward": str(args.backward),
                              "n": args.n, "seed": args.seed, "threads": args.threads,
                              "overgen_sources": settings.generate.overgen.sources,
                              "tuned_on": f"valid[:{args.tune_limit}]",
                              "reported_on": "ecbplus_test, msrp_val_positives"}
    tune = read_examples(models.forward.corpus, "valid", args.tune_limit,
                         lambda texts: sources_of(settings, texts, annotate=True))
    result["lambda_curve"] = sweep(by_name["dips"], tune, args.n, models.similarity)
    weight = pick(result["lambda_curve"])
    result["lambda"] = weight
    for generator in built:  # the composites' own DiPS sources take the tuned λ too
        for dips in [generator, *getattr(generator, "sources", [])]:
            if isinstance(dips, DipsGenerator):
                dips.config = dips.config.model_copy(update={"weight": weight})
    print(result["lambda_curve"], "λ =", weight)
    if "overgen" in by_name and args.nll_quantile:
        bound = backward_bound(models, tune, args.nll_quantile)
        result["overgen_max_backward_nll"] = bound
        by_name["overgen"].thresholds = replace(by_name["overgen"].thresholds, max_backward_nll=bound)
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
        if "overgen" in by_name:
            rows = berro(by_name["overgen"], examples, args.n, args.seed, judges)
            result[name]["berro"] = rows
            result[name]["table"] += "\n\novergen, Berro-style:\n" + berro_tables(rows)
        print(name, "\n" + result[name]["table"])
        report("generators2_quality", result)
    composites = [g for g in generators if g.name in {"overgen", "rank"}]
    if composites and args.speed_limit:
        result["threads_speed"] = speed(composites, data["ecbplus_test"][:args.speed_limit], args.n,
                                        args.seed, args.threads, args.baseline_threads)
        print(result["threads_speed"])
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
    parser.add_argument("--threads", type=int, default=1, help="torch threads (generate.threads).")
    parser.add_argument("--baseline-threads", type=int, default=2)
    parser.add_argument("--speed-limit", type=int, default=3,
                        help="ECB+ test inputs timed at both thread counts (0: skip).")
    parser.add_argument("--nll-quantile", type=float, default=0.9,
                        help="overgen's backward-NLL bound: this quantile of the gold pairs' "
                             "backward NLL on the tuning inputs (0: the bound stays off).")
    parser.add_argument("--chains", default="",
                        help="Comma-separated chains added to overgen's sources (wordnet>beam).")
    parser.add_argument("--generators", default=",".join(GENERATORS),
                        help="Comma-separated subset (dips is always built: the λ sweep).")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
