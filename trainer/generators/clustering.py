"""k-means under token Levenshtein distance, with farthest-first initialisation and one cluster
fixed on the input (ParaBank 2's way of picking collectively diverse samples).

Edit distance has no mean, so the update step moves each free centre to its cluster's medoid
(the member with the least total distance to the others): k-means in a metric space."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass


def distance_tokens(tokens: Sequence[str]) -> tuple[str, ...]:
    """Tokens as the distance sees them: lower-cased, punctuation-only tokens dropped."""
    return tuple(t.casefold() for t in tokens
                 if not all(unicodedata.category(ch).startswith("P") for ch in t))


def token_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance over tokens (insertions, deletions, substitutions of whole words),
    by rapidfuzz (imported here: parawire.trainer loads without the train extra)."""
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.distance(list(a), list(b))


def distance_matrix(items: Sequence[Sequence[str]]) -> list[list[int]]:
    """Pairwise token distances of the (already normalised) items."""
    size = len(items)
    matrix = [[0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1, size):
            matrix[i][j] = matrix[j][i] = token_distance(items[i], items[j])
    return matrix


def farthest_first(distances: Sequence[Sequence[int]], fixed: int, k: int) -> list[int]:
    """k centres: `fixed` first, then each next one the point farthest from its nearest chosen
    centre (ties: the lowest index)."""
    centres = [fixed]
    nearest = list(distances[fixed])
    while len(centres) < min(k, len(distances)):
        best = max(range(len(distances)), key=lambda i: (nearest[i], -i))
        if nearest[best] == 0:
            break  # every point sits on a centre already
        centres.append(best)
        nearest = [min(a, b) for a, b in zip(nearest, distances[best], strict=True)]
    return centres


def assign(distances: Sequence[Sequence[int]], centres: Sequence[int]) -> list[int]:
    """Index (into centres) of each point's nearest centre (ties: the earlier centre)."""
    return [min(range(len(centres)), key=lambda c: (row[centres[c]], c)) for row in distances]


def medoid(distances: Sequence[Sequence[int]], members: Sequence[int]) -> int:
    """The member with the least total distance to the other members (ties: the lowest index)."""
    return min(members, key=lambda m: (sum(distances[m][o] for o in members), m))


@dataclass(frozen=True, slots=True)
class Clustering:
    """Centres (point indices) and, for each point, the index of its cluster in centres."""

    centres: tuple[int, ...]
    labels: tuple[int, ...]

    def members(self, cluster: int) -> list[int]:
        """Points of one cluster, in index order."""
        return [i for i, label in enumerate(self.labels) if label == cluster]


def kmeans(distances: Sequence[Sequence[int]], fixed: int, k: int, iterations: int) -> Clustering:
    """k clusters; cluster 0's centre stays on point `fixed`, the others start farthest-first
    and move to their medoids until nothing changes (or after `iterations` rounds)."""
    centres = farthest_first(distances, fixed, k)
    labels = assign(distances, centres)
    for _ in range(iterations):
        moved = [centres[0]]
        for c in range(1, len(centres)):
            members = [i for i, label in enumerate(labels) if label == c]
            moved.append(medoid(distances, members) if members else centres[c])
        if moved == centres:
            break
        centres = moved
        labels = assign(distances, centres)
    return Clustering(tuple(centres), tuple(labels))
