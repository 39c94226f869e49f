"""Sentence vectors (an annotation of the sentences the aligner can pair) in files under the
data dir: one folder per language, rows appended as sentences become pairable (a sentence
whose article joins a story of another outlet later is appended then), read memory-mapped,
searched exactly by blocks of matrix products.

Why exact numpy blocks: the aligner searches a reference only among the sentences of its
story or date window (thousands to tens of thousands of rows), so an exact product over
those rows is cheap and needs no index to build, keep in step or filter; an approximate
library (faiss, usearch, hnswlib) pays off only when every query scans the whole archive.
Memory stays bounded: rows are gathered block by block from the memory map."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from parawire.errors import ParawireError
from parawire.indexer.vector_store import check_belongs, model_mismatch, new_ids, no_vector

BLOCK_ROWS = 65_536


def vectors_folder(data_dir: Path, language: str) -> Path:
    """Where one language's sentence vectors live."""
    return data_dir / "vectors" / language


class VectorFiles:
    """The embedded VectorStore: `ids.i64` (sentence ids, in the order appended) and
    `vectors.f32` (one normalised row per id) in `folder`, with `meta.json` naming the
    model; rows past the shorter file (an interrupted append) are dropped on opening, so an
    append resumes where the last whole row ended."""

    def __init__(self, folder: Path, model: str, version: str, dimensions: int,
                 reset: bool = False) -> None:
        """The files for this model; files of another model are an error, or (`reset`)
        emptied and taken over."""
        self.folder, self.dimensions = folder, dimensions
        folder.mkdir(parents=True, exist_ok=True)
        meta = folder / "meta.json"
        wanted = {"model": model, "version": version, "dimensions": dimensions}
        found = json.loads(meta.read_text()) if meta.is_file() else None
        if found is not None and found != wanted and not reset:
            raise model_mismatch(str(folder), found, model, version)
        if found != wanted:
            for path in (self._ids_path, self._vectors_path):
                path.write_bytes(b"")
            meta.write_text(json.dumps(wanted))
        self._repair()
        self.model = f"{model} {version}"

    @classmethod
    def existing(cls, folder: Path) -> VectorFiles:
        """The vectors already in `folder`, whatever their model (one line when none)."""
        try:
            meta = json.loads((folder / "meta.json").read_text())
            return cls(folder, meta["model"], meta["version"], int(meta["dimensions"]))
        except (OSError, ValueError, KeyError):
            raise ParawireError(f"no sentence vectors in {folder}: run `parawire embed`") \
                from None

    def check_store(self, last_sentence_id: int) -> None:
        """One line when these vectors cannot belong to a store whose highest sentence id
        is `last_sentence_id` (copied from elsewhere, or the store was rebuilt)."""
        check_belongs(self, str(self.folder), last_sentence_id)

    @property
    def _ids_path(self) -> Path:
        return self.folder / "ids.i64"

    @property
    def _vectors_path(self) -> Path:
        return self.folder / "vectors.f32"

    def _repair(self) -> None:
        """Cut both files to the rows they both hold whole."""
        row = 4 * self.dimensions
        for path in (self._ids_path, self._vectors_path):
            path.touch()
        rows = min(self._ids_path.stat().st_size // 8, self._vectors_path.stat().st_size // row)
        for path, size in ((self._ids_path, 8 * rows), (self._vectors_path, row * rows)):
            if path.stat().st_size != size:
                with path.open("r+b") as handle:
                    handle.truncate(size)
        self._load()

    def _load(self) -> None:
        self._by_id: tuple[np.ndarray, np.ndarray] | None = None
        self._map(np.fromfile(self._ids_path, dtype=np.int64))

    def _map(self, ids: np.ndarray) -> None:
        self.ids = ids
        self.vectors = (np.memmap(self._vectors_path, dtype=np.float32, mode="r",
                                  shape=(len(self.ids), self.dimensions))
                        if len(self.ids) else np.zeros((0, self.dimensions), np.float32))

    def _sorted(self) -> tuple[np.ndarray, np.ndarray]:
        """The held ids sorted, and the row of each (built once after each change)."""
        if self._by_id is None:
            order = np.argsort(self.ids, kind="stable")
            self._by_id = (self.ids[order], order)
        return self._by_id

    def count(self) -> int:
        """How many sentences have a vector."""
        return len(self.ids)

    def last_id(self) -> int:
        """The highest sentence id held (0 when empty)."""
        return int(self.ids.max()) if len(self.ids) else 0

    def held(self, ids: Sequence[int]) -> np.ndarray:
        """Whether each of these ids has a vector."""
        return self.rows_of(ids) >= 0

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Append rows for ids that have none yet (vectors first, then ids, each flushed: a
        crash between the two leaves a partial row that opening cuts)."""
        if not len(ids):
            return
        added = new_ids(self, ids)
        with self._vectors_path.open("ab") as handle:
            handle.write(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
        with self._ids_path.open("ab") as handle:
            handle.write(added.tobytes())
        if self._by_id is not None:  # merge the new ids into the sorted index
            ordered, rows = self._by_id
            order = np.argsort(added, kind="stable")
            at = np.searchsorted(ordered, added[order])
            self._by_id = (np.insert(ordered, at, added[order]),
                           np.insert(rows, at, len(self.ids) + order))
        self._map(np.concatenate([self.ids, added]))

    def clear(self) -> None:
        """Drop every row (before a recompute)."""
        for path in (self._ids_path, self._vectors_path):
            path.write_bytes(b"")
        self._load()

    def rows_of(self, ids: Sequence[int]) -> np.ndarray:
        """Row numbers of these ids (-1 where an id has no vector)."""
        wanted = np.asarray(ids, dtype=np.int64)
        if not len(self.ids):
            return np.full(len(wanted), -1, dtype=np.int64)
        ordered, rows = self._sorted()
        at = np.minimum(np.searchsorted(ordered, wanted), len(ordered) - 1)
        return np.where(ordered[at] == wanted, rows[at], -1)

    def get(self, ids: Sequence[int]) -> np.ndarray:
        """The vectors of these ids, in order; an id without a vector is an error."""
        rows = self.rows_of(ids)
        if (rows < 0).any():
            missing = int(np.asarray(ids)[rows < 0][0])
            raise no_vector(str(self.folder), missing)
        return np.asarray(self.vectors[rows])

    def search(self, queries: np.ndarray, among: Sequence[int],
               k: int) -> list[list[tuple[int, float]]]:
        """For each query row, the k ids of `among` (those with a vector) with the highest
        cosine, best first (ties by lower id)."""
        rows = self.rows_of(among)
        rows = np.unique(rows[rows >= 0])
        best_scores = np.full((len(queries), 0), -np.inf, dtype=np.float32)
        best_ids = np.zeros((len(queries), 0), dtype=np.int64)
        for start in range(0, len(rows), BLOCK_ROWS):
            block = rows[start:start + BLOCK_ROWS]
            scores = np.concatenate([best_scores, queries @ np.asarray(self.vectors[block]).T],
                                    axis=1)
            ids = np.concatenate([best_ids, np.broadcast_to(self.ids[block],
                                                            (len(queries), len(block)))], axis=1)
            keep = np.lexsort((ids, -scores), axis=1)[:, :k]
            best_scores = np.take_along_axis(scores, keep, axis=1)
            best_ids = np.take_along_axis(ids, keep, axis=1)
        return [[(int(i), float(s)) for i, s in zip(ids_row, scores_row, strict=True)]
                for ids_row, scores_row in zip(best_ids, best_scores, strict=True)]
