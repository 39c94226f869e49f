"""The VectorStore protocol: one language's sentence vectors, appended by the embed stage and
searched exactly by the aligner's dense source, whichever backend holds them (files under
the data dir, or an Elasticsearch index); and the checks every backend makes alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from parawire.errors import ParawireError


class VectorStore(Protocol):
    """L2-normalised float32 rows by sentence id, made by one model (`model`: its name and
    version). Each id is added once; `search` is exact."""

    model: str

    def count(self) -> int:
        """How many sentences have a vector."""
        ...

    def last_id(self) -> int:
        """The highest sentence id held (0 when empty)."""
        ...

    def held(self, ids: Sequence[int]) -> np.ndarray:
        """Whether each of these ids has a vector."""
        ...

    def get(self, ids: Sequence[int]) -> np.ndarray:
        """The vectors of these ids, in order; an id without a vector is an error."""
        ...

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Store rows for ids that have none yet (a repeated id is an error)."""
        ...

    def clear(self) -> None:
        """Drop every row (before a recompute)."""
        ...

    def check_store(self, last_sentence_id: int) -> None:
        """One line when these vectors cannot belong to a store whose highest sentence id
        is `last_sentence_id`."""
        ...

    def search(self, queries: np.ndarray, among: Sequence[int],
               k: int) -> list[list[tuple[int, float]]]:
        """For each query row, the k ids of `among` (those with a vector) with the highest
        cosine, best first (ties by lower id)."""
        ...


def model_mismatch(where: str, found: dict[str, object], model: str,
                   version: str) -> ParawireError:
    """The error for vectors of another model than the one asked for."""
    return ParawireError(
        f"the vectors in {where} were made by {found.get('model')} {found.get('version')}, "
        f"not {model} {version}: run `parawire embed` to recompute them")


def no_vector(where: str, sentence_id: int) -> ParawireError:
    """The error for a sentence asked for that has no vector."""
    return ParawireError(f"sentence {sentence_id} has no vector in {where}: run `parawire embed`")


def new_ids(store: VectorStore, ids: Sequence[int]) -> np.ndarray:
    """`ids` as an array, or an error when one repeats or already has a vector."""
    added = np.asarray(ids, dtype=np.int64)
    if len(np.unique(added)) != len(added) or store.held(added).any():
        raise ParawireError("a sentence's vector is added once: these ids repeat or already "
                            "have one")
    return added


def check_belongs(store: VectorStore, where: str, last_sentence_id: int) -> None:
    """One line when `store` holds a sentence id past the store's last one (copied from
    another store, or the store was rebuilt)."""
    if store.last_id() > last_sentence_id:
        raise ParawireError(
            f"the vectors in {where} hold sentence {store.last_id()}, which this store does "
            f"not (its last is {last_sentence_id}): they come from another store; run "
            "`parawire embed --redo`")
