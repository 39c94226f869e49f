"""The Embedder seam: sentence vectors and token vectors for one language (DESIGN.md, "Seams").

Sentence vectors feed the dense candidate source and the stories; token vectors feed the pair
model's directional coverage. Every embedder loads its model from a local path or a package:
nothing is downloaded at run time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np


class TokenVectors(NamedTuple):
    """One text's tokens and a float32 (tokens × dimensions) array of their L2-normalised
    vectors, row i for token i."""

    tokens: list[str]
    vectors: np.ndarray


class Embedder(Protocol):
    """Sentence and token vectors of one model; `name` and `version` are stored with every
    vector, so vectors of another model are never mixed with them."""

    name: str
    version: str
    dimensions: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """A float32 (len(texts) × dimensions) array of L2-normalised sentence vectors; equal
        texts give equal rows."""
        ...

    def vectors_and_tokens(self, texts: Sequence[str]
                           ) -> tuple[np.ndarray, list[TokenVectors]]:
        """The texts' sentence vectors (as `encode` gives them) and each text's tokens with
        their vectors, from one pass of the model."""
        ...
