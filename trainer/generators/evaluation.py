"""Scoring generators on a corpus split: diversity against the input and among the outputs,
fidelity to the input and to the reference, per output rank, and seconds per input."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parawire.trainer.corpus import read_records, split_path, tokenize
from parawire.trainer.generators import metrics as m
from parawire.trainer.generators.api import Candidate, Generator, Source

if TYPE_CHECKING:
    from parawire.trainer.inference import Paraphraser

Similarity = Callable[[Sequence[tuple[str, str]]], list[float]]
Parser = Callable[[Sequence[str]], list[m.DependencyTree]]


@dataclass(frozen=True, slots=True)
class Example:
    """One input with the reference paraphrase it was mined with (None: no reference)."""

    source: Source
    reference: tuple[str, ...] | None = None


@dataclass(slots=True)
class Judges:
    """Optional scorers of fidelity: sentence-embedding cosine of text pairs, the backward
    model for NLL(input | output), and a dependency parser for tree edit distance."""

    similarity: Similarity | None = None
    backward: Paraphraser | None = None
    parser: Parser | None = None


def cpu_seconds() -> float:
    """CPU seconds of this process (all threads) and of its finished child processes (an
    external translator such as apertium)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


def run_generator(generator: Generator, sources: Sequence[Source], n: int,
                  seed: int) -> tuple[list[list[Candidate]], dict[str, float]]:
    """Every source's candidates, and the mean wall-clock and CPU (cpu_seconds) seconds per
    input: on a shared machine the CPU figure is the one that compares."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    outputs = generator.generate_batch(sources, n, seed)
    count = max(1, len(sources))
    return outputs, {"seconds_per_input": round((time.perf_counter() - wall) / count, 3),
                     "cpu_seconds_per_input": round((cpu_seconds() - cpu) / count, 3)}


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _required(source: Source) -> set[str]:
    return set(source.proper_nouns) | set(source.numbers)


def report(examples: Sequence[Example], outputs: Sequence[Sequence[Candidate]], n: int,
           judges: Judges) -> dict[str, Any]:
    """Means over the inputs (see metrics for each definition) and a per-rank table."""
    flat = [(e, rank, c) for e, cands in zip(examples, outputs, strict=True)
            for rank, c in enumerate(cands, start=1)]
    similarity = (judges.similarity([(e.source.text, c.text) for e, _, c in flat])
                  if judges.similarity and flat else [None] * len(flat))
    backward = (judges.backward.mean_nll([(tuple(t.casefold() for t in c.tokens),
                                           e.source.model_tokens) for e, _, c in flat])
                if judges.backward and flat else [None] * len(flat))
    rows = []
    for (example, rank, candidate), sim, nll in zip(flat, similarity, backward, strict=True):
        out, src = candidate.tokens, example.source.tokens
        kept, needed = m.preservation(out, _required(example.source))
        rows.append({"rank": rank, "one_minus_bleu": m.one_minus_bleu(out, src),
                     "bow_iou": m.bow_iou(out, src), "pinc": m.pinc(out, src), "wer": m.wer(out, src),
                     "length_ratio": m.length_ratio(out, src), "use_cosine": sim,
                     "backward_nll": nll, "kept": kept, "needed": needed})
    if judges.parser and flat:
        texts = [e.source.text for e in examples] + [c.text for _, _, c in flat]
        trees = judges.parser(texts)
        source_tree = {id(e): trees[i] for i, e in enumerate(examples)}
        for row, (example, _, _), tree in zip(rows, flat, trees[len(examples):], strict=True):
            row["tree_edit_distance"] = m.tree_edit_distance(tree, source_tree[id(example)])

    def summary(part: list[dict[str, Any]]) -> dict[str, Any]:
        keys = ["one_minus_bleu", "bow_iou", "pinc", "wer", "length_ratio", "tree_edit_distance",
                "use_cosine", "backward_nll"]
        out: dict[str, Any] = {"outputs": len(part)}
        for key in keys:
            out[key] = _mean([r[key] for r in part if r.get(key) is not None])
        needed = sum(r["needed"] for r in part)
        out["preservation"] = round(sum(r["kept"] for r in part) / needed, 4) if needed else None
        return out

    token_sets = [[c.tokens for c in cands] for cands in outputs]
    among = {"pairwise_one_minus_bleu": _mean([m.pairwise(t, m.one_minus_bleu) for t in token_sets
                                               if len(t) > 1]),
             "pairwise_bow_iou": _mean([m.pairwise(t, m.bow_iou) for t in token_sets if len(t) > 1]),
             "ttr": _mean([m.type_token_ratio(t) for t in token_sets if t]),
             **{f"distinct_{k}": _mean([m.distinct_n(t, k) for t in token_sets if t])
                for k in range(1, 5)}}
    return {"inputs": len(examples), "outputs_per_input": round(len(flat) / max(1, len(examples)), 2),
            "vs_input": summary(rows), "among_outputs": among,
            "vs_reference": _reference_scores(examples, outputs),
            "per_rank": [summary([r for r in rows if r["rank"] == rank]) for rank in range(1, n + 1)]}


def _reference_scores(examples: Sequence[Example], outputs: Sequence[Sequence[Candidate]]) -> dict[str, Any]:
    """Rank-1 output against the reference: corpus BLEU, ROUGE-1/2/L F1, mean METEOR."""
    from parawire.trainer.metrics import score_all

    pairs = [(cands[0].tokens, e.reference) for e, cands in zip(examples, outputs, strict=True)
             if e.reference and cands]
    if not pairs:
        return {}
    hypotheses = [" ".join(t.casefold() for t in hyp) for hyp, _ in pairs]
    references = [" ".join(ref) for _, ref in pairs]
    return {"pairs": len(pairs), **score_all(hypotheses, references),
            "meteor": _mean([m.meteor(hyp, ref) for hyp, ref in pairs])}


def as_jsonl_record(source: Source, candidates: Sequence[Candidate]) -> dict[str, Any]:
    """What `parawire paraphrase` writes per input."""
    return {"input": source.text,
            "outputs": [{"text": c.text, "origin": c.origin,
                         "scores": {k: round(v, 4) for k, v in c.scores.items()}} for c in candidates]}


def read_examples(corpus: Path, split: str, limit: int | None,
                  make_sources: Callable[[Sequence[str]], list[Source]]) -> list[Example]:
    """The split's inputs as sources, with their targets as references (first `limit` only)."""
    records = read_records(split_path(corpus, split))[:limit]
    sources = make_sources([source for source, _ in records])
    return [Example(source, tokenize(target)) for source, (_, target) in zip(sources, records, strict=True)]


def evaluate_generators(generators: Sequence[Generator], examples: Sequence[Example], n: int, seed: int,
                        judges: Judges) -> dict[str, Any]:
    """The report of each generator on the same examples, with its seconds per input."""
    results: dict[str, Any] = {}
    for generator in generators:
        outputs, timing = run_generator(generator, [e.source for e in examples], n, seed)
        results[generator.name] = {**report(examples, outputs, n, judges), **timing}
        drop_rate = getattr(generator, "drop_rate", None)
        if drop_rate is not None:
            results[generator.name]["threshold_drop_rate"] = round(drop_rate(), 4)
        pool_report = getattr(generator, "pool_report", None)
        if pool_report is not None:  # composite generators: what each prune step removed
            results[generator.name]["pool"] = pool_report()
    return results
