"""Choosing among scored samples: duplicates, a score threshold, one best per cluster, top n."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


def first_of_each(items: Sequence[T], keys: Sequence[Hashable]) -> list[int]:
    """Indices of the first item of each distinct key, in order (deduplication)."""
    seen: set[Hashable] = set()
    kept = []
    for index, key in enumerate(keys):
        if key not in seen:
            seen.add(key)
            kept.append(index)
    return kept


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile of values, interpolating linearly between order statistics (numpy's
    default): q=0 the least, q=1 the greatest."""
    if not values:
        raise ValueError("the quantile of no values")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def below(scores: Sequence[float], threshold: float) -> list[int]:
    """Indices of the scores at or under the threshold (lower scores are better)."""
    return [i for i, score in enumerate(scores) if score <= threshold]


def best_per_cluster(labels: Sequence[int], scores: Sequence[float],
                     skip: frozenset[int] = frozenset()) -> list[int]:
    """The lowest-scored point of each cluster not in skip (ties: lowest index), best first."""
    best: dict[int, int] = {}
    for index, (label, score) in enumerate(zip(labels, scores, strict=True)):
        if label in skip:
            continue
        if label not in best or score < scores[best[label]]:
            best[label] = index
    return sorted(best.values(), key=lambda i: (scores[i], i))
