"""Pruning an over-generated pool (Berro et al.): pure steps over precomputed scores, applied in
order, each recording what it removed.

1. copies — empty candidates and exact copies of the input (lower-cased words), or of an
   earlier candidate;
2. irrelevant — embedding cosine with the input below `irrelevant`;
3. duplicates — cosine with the input above `duplicate` (a near copy of it), or with an
   earlier kept candidate above `duplicate` (a near copy of that one);
4. names and numbers — a proper-noun word or number of the input missing from the candidate
   (embeddings pass "two men" → "two women"; this does not);
5. backward NLL — mean NLL(input | candidate) under the backward model above `max_backward_nll`
   (0: the step is off).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from parawire.trainer.generators.api import Candidate, Source
from parawire.trainer.generators.metrics import preservation, words

STEPS = ("copies", "irrelevant", "duplicates", "names_numbers", "backward_nll")
Similarity = Callable[[Sequence[tuple[str, str]]], list[float]]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Cosine bounds (irrelevant below, duplicate above) and the backward NLL bound (0: off);
    defaults: [generate.overgen]."""

    irrelevant: float
    duplicate: float
    max_backward_nll: float


def keeps_names_and_numbers(source: Source, candidate: Candidate) -> bool:
    """Every proper-noun word and number of the input is a token of the candidate."""
    kept, needed = preservation(candidate.tokens, set(source.proper_nouns) | set(source.numbers))
    return kept == needed


def prune(source: Source, pool: Sequence[Candidate], similarity: Similarity, thresholds: Thresholds,
          backward_nll: Callable[[Sequence[Candidate]], list[float]] | None = None,
          ) -> tuple[list[Candidate], Counter[str]]:
    """The candidates that pass every step (in pool order) and how many each step removed;
    each kept candidate gets its cosine with the input as score "input_cosine"."""
    removed: Counter[str] = Counter({step: 0 for step in STEPS})
    seen = {words(source.tokens)}
    kept: list[Candidate] = []
    for candidate in pool:
        key = words(candidate.tokens)
        if not key or key in seen:
            removed["copies"] += 1
            continue
        seen.add(key)
        kept.append(candidate)
    among = [(i, j) for j in range(len(kept)) for i in range(j)]
    scores = similarity([(source.text, c.text) for c in kept]
                        + [(kept[i].text, kept[j].text) for i, j in among])
    pair = dict(zip(among, scores[len(kept):], strict=True))
    distinct: list[int] = []
    for index, (candidate, cos) in enumerate(zip(kept, scores, strict=False)):
        candidate.scores["input_cosine"] = cos
        if cos < thresholds.irrelevant:
            removed["irrelevant"] += 1
        elif cos > thresholds.duplicate or any(pair[(d, index)] > thresholds.duplicate
                                               for d in distinct):
            removed["duplicates"] += 1
        else:
            distinct.append(index)
    named = [kept[i] for i in distinct if keeps_names_and_numbers(source, kept[i])]
    removed["names_numbers"] += len(distinct) - len(named)
    if not thresholds.max_backward_nll or backward_nll is None or not named:
        return named, removed
    final = []
    for candidate, nll in zip(named, backward_nll(named), strict=True):
        candidate.scores["backward_nll"] = nll
        if nll > thresholds.max_backward_nll:
            removed["backward_nll"] += 1
        else:
            final.append(candidate)
    return final, removed
