"""Over-generate and prune (Berro et al.): pool the candidates of several source generators,
prune them (see prune for the steps), and return the survivors taking each source's best in
turn, so that every source that kept something is heard."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import zip_longest

from parawire.trainer.generators.api import Candidate, Generator, OneByOne, Scorer, Source
from parawire.trainer.generators.evaluation import Similarity
from parawire.trainer.generators.prune import STEPS, Thresholds, prune


def interleave(groups: Sequence[Sequence[Candidate]]) -> list[Candidate]:
    """First of each group, then second of each, ... (groups in order)."""
    return [c for row in zip_longest(*groups) for c in row if c is not None]


class OverGenerate(OneByOne):
    """`per_source` candidates from each source generator (seed passed on), pruned together.

    `counts` adds up over every call: pooled candidates per source ("pool:NAME"), removals per
    prune step, and kept candidates per source ("kept:NAME")."""

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

    def pool(self, source: Source, seed: int) -> list[list[Candidate]]:
        """Each source generator's candidates, in source order."""
        return [generator.generate(source, self.per_source, seed) for generator in self.sources]

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n pruned candidates, the sources' best first in turn."""
        groups = self.pool(source, seed)
        for generator, group in zip(self.sources, groups, strict=True):
            self.counts[f"pool:{generator.name}"] += len(group)
        backward = self.backward
        kept, removed = prune(source, interleave(groups), self.similarity, self.thresholds,
                              (lambda cands: backward.score(source, cands)) if backward else None)
        self.counts.update(removed)
        by_source: dict[str, list[Candidate]] = {}
        for candidate in kept:
            by_source.setdefault(candidate.origin.split(":")[0], []).append(candidate)
            self.counts[f"kept:{candidate.origin.split(':')[0]}"] += 1
        return [replace(c, origin=f"{self.name}/{c.origin}")
                for c in interleave(list(by_source.values()))[:n]]

    def pool_report(self) -> dict[str, int | str]:
        """Pooled, removed per step and kept, over every call so far (the Berro-style table)."""
        pooled = sum(v for k, v in self.counts.items() if k.startswith("pool:"))
        kept = sum(v for k, v in self.counts.items() if k.startswith("kept:"))
        return {"pooled": pooled, **{f"removed_{step}": self.counts[step] for step in STEPS},
                "kept": kept, **{k: v for k, v in sorted(self.counts.items()) if ":" in k},
                **{f"skipped:{name}": why for name, why in self.skipped.items()}}

