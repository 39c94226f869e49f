"""DiPS's objective (Kumar et al. 2019) and its greedy maximisation: pure functions, no model.

For a ground set V of hypotheses and a chosen subset S (|S| ≤ k):

    F(S) = λ · (overlap(S) + embedding(S)) / 2 + (1 − λ) · (distinct(S) + coverage(S)) / 2

fidelity to the input —
  overlap(S)   = Σ_{s∈S} o(s) / k, o(s) the mean over n = 1..N of the share of s's distinct
                 n-grams found in the input (modular, in [0, 1]);
  embedding(S) = Σ_{s∈S} (1 + cos(e(s), e(input))) / 2 / k, e the mean word embedding
                 (modular, in [0, 1]);
diversity —
  distinct(S)  = |∪_{s∈S} n-grams(s)| / |∪_{v∈V} n-grams(v)| over n = 1..N (a coverage
                 function: monotone, submodular, in [0, 1]);
  coverage(S)  = Σ_{v∈V} max_{s∈S} (1 − lev(v, s) / max(|v|, |s|)) / |V| (facility location
                 under token edit distance: monotone, submodular, in [0, 1]).

Every term is normalised to [0, 1], non-negative, monotone and submodular, so F is too and the
greedy choice reaches at least (1 − 1/e) of the best subset's value (Nemhauser et al. 1978).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from parawire.trainer.generators.clustering import token_distance

Tokens = Sequence[str]


def ngram_set(tokens: Tokens, max_n: int) -> frozenset[tuple[str, ...]]:
    """The distinct n-grams of tokens for n = 1..max_n."""
    return frozenset(tuple(tokens[i:i + n]) for n in range(1, max_n + 1)
                     for i in range(len(tokens) - n + 1))


def overlap_with(tokens: Tokens, source: Tokens, max_n: int) -> float:
    """Mean over n = 1..max_n (orders tokens is long enough for) of the share of tokens'
    distinct n-grams that are n-grams of the source (0 for no tokens)."""
    parts = []
    for n in range(1, max_n + 1):
        grams = {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}
        if grams:
            own = {tuple(source[i:i + n]) for i in range(len(source) - n + 1)}
            parts.append(len(grams & own) / len(grams))
    return sum(parts) / len(parts) if parts else 0.0


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine of two vectors (0 when either is zero)."""
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norm if norm else 0.0


def edit_similarity(a: Tokens, b: Tokens) -> float:
    """1 − token Levenshtein distance / the longer length (1 for equal token lists)."""
    longest = max(len(a), len(b))
    return 1 - token_distance(a, b) / longest if longest else 1.0


@dataclass(frozen=True, slots=True)
class Objective:
    """F over a ground set, precomputed: per-item fidelity (overlap and embedding), n-gram
    sets, and the item-by-item edit similarity; k the budget the modular terms divide by."""

    weight: float  # λ
    k: int
    overlap: tuple[float, ...]
    embedding: tuple[float, ...]
    grams: tuple[frozenset[tuple[str, ...]], ...]
    similarity: tuple[tuple[float, ...], ...]

    @classmethod
    def build(cls, items: Sequence[Tokens], source: Tokens, item_vectors: Sequence[Sequence[float]],
              source_vector: Sequence[float], weight: float, k: int, max_n: int = 2) -> Objective:
        """The objective of items (token lists, lower-cased) for one source."""
        return cls(weight, max(1, k),
                   tuple(overlap_with(t, source, max_n) for t in items),
                   tuple((1 + cosine(v, source_vector)) / 2 for v in item_vectors),
                   tuple(ngram_set(t, max_n) for t in items),
                   tuple(tuple(edit_similarity(a, b) for b in items) for a in items))

    @property
    def size(self) -> int:
        """|V|."""
        return len(self.overlap)

    def terms(self, chosen: Sequence[int]) -> dict[str, float]:
        """The four normalised terms of a subset."""
        if not chosen:
            return {"overlap": 0.0, "embedding": 0.0, "distinct": 0.0, "coverage": 0.0}
        every = frozenset().union(*self.grams)
        got = frozenset().union(*(self.grams[i] for i in chosen))
        return {"overlap": sum(self.overlap[i] for i in chosen) / self.k,
                "embedding": sum(self.embedding[i] for i in chosen) / self.k,
                "distinct": len(got) / len(every) if every else 0.0,
                "coverage": sum(max(row[i] for i in chosen) for row in self.similarity) / self.size}

    def value(self, chosen: Sequence[int]) -> float:
        """F(chosen)."""
        t = self.terms(chosen)
        return (self.weight * (t["overlap"] + t["embedding"]) / 2
                + (1 - self.weight) * (t["distinct"] + t["coverage"]) / 2)


def greedy(objective: Objective, k: int) -> list[int]:
    """Up to k items chosen one by one, each the one adding most to F (ties: lowest index), in
    the order chosen."""
    chosen: list[int] = []
    while len(chosen) < min(k, objective.size):
        best, best_value = -1, -math.inf
        for item in range(objective.size):
            if item in chosen:
                continue
            value = objective.value([*chosen, item])
            if value > best_value:
                best, best_value = item, value
        chosen.append(best)
    return chosen
