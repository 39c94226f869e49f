"""Lexical neighbours within a pool of sentences: the cosine of TF-IDF vectors (scikit-learn,
sublinear term frequency, inverse document frequency over the pool itself, no stop-word
list, so any language works). The dense source takes a share of its candidates from here:
a rewording that a sentence model ranks low often keeps a rare word or a name."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class LexicalPool:
    """TF-IDF rows of the texts of `ids`, the vocabulary and inverse document frequencies
    fitted on them alone; a query text is read with them (its words the pool lacks cannot
    match, and leave its ranking as it is)."""

    def __init__(self, ids: Sequence[int], texts: Sequence[str]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.ids = np.asarray(ids, dtype=np.int64)
        self._order = np.argsort(self.ids, kind="stable")
        self.vectorizer = TfidfVectorizer(sublinear_tf=True, token_pattern=r"(?u)\b\w+\b")
        self.matrix = self.vectorizer.fit_transform(texts) if len(texts) else None

    def _rows(self, ids: np.ndarray) -> np.ndarray:
        """The pool's rows of these ids (-1 where an id is not in the pool)."""
        if not len(self.ids):
            return np.full(len(ids), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.ids[self._order], ids), len(self.ids) - 1)
        rows = self._order[at]
        return np.where(self.ids[rows] == ids, rows, -1)

    def nearest(self, text: str, among: Sequence[int] | np.ndarray,
                k: int) -> list[tuple[int, float]]:
        """The k ids of `among` (those in the pool) whose TF-IDF cosine with `text` is
        highest, best first (ties by lower id); ids of no shared word are left out."""
        rows = self._rows(np.asarray(among, dtype=np.int64))
        rows = rows[rows >= 0]
        if self.matrix is None or not len(rows) or k <= 0:
            return []
        query = self.vectorizer.transform([text])
        scores = (self.matrix @ query.T).toarray().ravel()[rows]
        ids = self.ids[rows]
        order = np.lexsort((ids, -scores))[:k]
        return [(int(ids[j]), float(scores[j])) for j in order if scores[j] > 0]
