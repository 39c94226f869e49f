"""Score normalisation and the beta threshold (DESIGN.md, step 4)."""

from __future__ import annotations

from collections.abc import Sequence

from parawire.indexer import Hit


def normalized(hits: Sequence[Hit], mode: str, self_score: float = 0.0) -> list[tuple[Hit, float]]:
    """Each hit with its score rescaled to [0, 1].

    `max`: divided by the best score of the list (the paper); `self`: by the reference's
    score against itself (capped at 1).
    """
    if not hits:
        return []
    scale = max(hit.score for hit in hits) if mode == "max" else self_score
    if scale <= 0:
        return [(hit, 0.0) for hit in hits]
    return [(hit, min(1.0, hit.score / scale)) for hit in hits]


def above_beta(scored: Sequence[tuple[Hit, float]], beta: float) -> list[tuple[Hit, float]]:
    """The hits whose normalised score is at least beta."""
    return [(hit, score) for hit, score in scored if score >= beta]
