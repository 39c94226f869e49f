"""Over-generate and prune (Berro et al.): pool the candidates of several source generators,
prune them (see prune for the steps), and return the survivors taking each source's best in
turn, so that every source that kept something is heard."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import zip_longest

from parawire.trainer.generators.api import Candidate, Generator, Scorer, Source
from parawire.trainer.generators.evaluation import Similarity, cpu_seconds
from parawire.trainer.generators.prune import STEPS, Thresholds, prune


def interleave(groups: Sequence[Sequence[Candidate]]) -> list[Candidate]:
    """First of each group, then second of each, ... (groups in order)."""
    return [c for row in zip_longest(*groups) for c in row if c is not None]


def source_of(candidate: Candidate) -> str:
    """The source (or chain) that made a candidate: its origin up to the first colon."""
    return candidate.origin.split(":")[0]


def pool_batch(generators: Sequence[Generator], sources: Sequence[Source], per_source: int, seed: int,
               seconds: Counter[str]) -> list[list[list[Candidate]]]:
    """Each source's candidate groups (one per generator, in generator order); each generator
    runs once over the whole batch, its CPU seconds (cpu_seconds) added to seconds[generator.name]."""
    by_generator = []
    for generator in generators:
        started = cpu_seconds()
        by_generator.append(generator.generate_batch(sources, per_source, seed))
        seconds[generator.name] += cpu_seconds() - started
    return [[made[i] for made in by_generator] for i in range(len(sources))]


class OverGenerate:
    """`per_source` candidates from each source generator (seed passed on), pruned together.

    `counts` adds up over every call: pooled candidates per source ("pool:NAME"), removals per
    prune step, and kept candidates per source ("kept:NAME"); `seconds` the CPU seconds of each
    source and of the pruning ("prune")."""

    name = "overgen"

    def __init__(self, sources: Sequence[Generator], per_source: int, similarity: Similarity,
                 thresholds: Thresholds, backward: Scorer | None = None,
                 skipped: dict[str, str] | None = None) -> None:
        self.sources = list(sources)
        self.skipped = dict(skipped or {})  # source name → why it is not used
        self.per_source = per_source
        self.similarity = similarity
        self.thresholds = thresholds
        self.backward = backward
        self.counts: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n pruned candidates, the sources' best first in turn."""
        return self.generate_batch([source], n, seed)[0]

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Each source's pruned candidates; every source generator runs once over the batch."""
        pools = pool_batch(self.sources, sources, self.per_source, seed, self.seconds)
        return [self.choose(source, groups, n) for source, groups in zip(sources, pools, strict=True)]

    def choose(self, source: Source, groups: Sequence[Sequence[Candidate]], n: int) -> list[Candidate]:
        """Up to n survivors of pruning one source's pooled groups, counted in `counts`."""
        started = cpu_seconds()
        for group in groups:
            for candidate in group:
                self.counts[f"pool:{source_of(candidate)}"] += 1
        backward = self.backward
        kept, removed = prune(source, interleave(groups), self.similarity, self.thresholds,
                              (lambda cands: backward.score(source, cands)) if backward else None)
        self.counts.update(removed)
        by_source: dict[str, list[Candidate]] = {}
        for candidate in kept:
            by_source.setdefault(source_of(candidate), []).append(candidate)
            self.counts[f"kept:{source_of(candidate)}"] += 1
        self.seconds["prune"] += cpu_seconds() - started
        return [replace(c, origin=f"{self.name}/{c.origin}")
                for c in interleave(list(by_source.values()))[:n]]

    def pool_report(self) -> dict[str, int | str]:
        """Pooled, removed per step and kept, over every call so far (the Berro-style table)."""
        pooled = sum(v for k, v in self.counts.items() if k.startswith("pool:"))
        kept = sum(v for k, v in self.counts.items() if k.startswith("kept:"))
        return {"pooled": pooled, **{f"removed_{step}": self.counts[step] for step in STEPS},
                "kept": kept, **{k: v for k, v in sorted(self.counts.items()) if ":" in k},
                **{f"skipped:{name}": why for name, why in self.skipped.items()}}
