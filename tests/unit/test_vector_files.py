"""The vector files: exact search against a brute-force product (rows appended in any id
order), resume after a cut row, a vector added once, and vectors of another model or
another store named in one line."""

from __future__ import annotations

import numpy as np
import pytest

from parawire.errors import ParawireError
from parawire.indexer import VectorFiles


def unit_rows(rng: np.random.Generator, count: int, dimensions: int = 8) -> np.ndarray:
    rows = rng.normal(size=(count, dimensions)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_search_equals_the_exact_product_over_the_ids_asked(tmp_path, monkeypatch):
    monkeypatch.setattr("parawire.indexer.vector_files.BLOCK_ROWS", 7)  # several blocks
    rng = np.random.default_rng(3)
    files = VectorFiles(tmp_path, "m", "1", 8)
    ids = np.arange(1, 61) * 2
    vectors = unit_rows(rng, 60)
    # a later append may hold lower ids (an article that joins another outlet's story later)
    files.add(ids[30:], vectors[30:])
    files.get([ids[35]])  # the sorted index is built here, then merged by each append
    files.add(ids[:25][::-1], vectors[:25][::-1])
    files.add(ids[25:30], vectors[25:30])
    queries = unit_rows(rng, 5)
    among = [int(i) for i in ids[::3]] + [999]  # 999 has no vector
    for k in (1, 4, 30):
        found = files.search(queries, among, k)
        chosen = np.isin(ids, among)
        scores = queries @ vectors[chosen].T
        for row, hits in enumerate(found):
            best = np.argsort(-scores[row], kind="stable")[:k]
            assert [i for i, _ in hits] == [int(ids[chosen][j]) for j in best]
            assert np.allclose([s for _, s in hits], scores[row][best], atol=1e-6)
    assert np.array_equal(files.get([4, 2]), vectors[[1, 0]])


def test_an_interrupted_append_resumes_after_the_last_whole_row(tmp_path):
    rng = np.random.default_rng(5)
    files = VectorFiles(tmp_path, "m", "1", 8)
    files.add([1, 2, 3], unit_rows(rng, 3))
    with (tmp_path / "vectors.f32").open("ab") as handle:  # a crash mid-append
        handle.write(unit_rows(rng, 1).tobytes()[:20])
    with (tmp_path / "ids.i64").open("ab") as handle:
        handle.write(np.asarray([4], dtype=np.int64).tobytes())
    again = VectorFiles(tmp_path, "m", "1", 8)
    assert again.count() == 3 and again.last_id() == 3
    again.add([4], unit_rows(rng, 1))
    assert VectorFiles(tmp_path, "m", "1", 8).count() == 4
    for repeated in ([2], [7, 7]):
        with pytest.raises(ParawireError, match="added once"):
            again.add(repeated, unit_rows(rng, len(repeated)))
    assert VectorFiles(tmp_path, "m", "1", 8).count() == 4


def test_vectors_of_another_model_or_store_are_one_line(tmp_path):
    files = VectorFiles(tmp_path, "m", "1", 8)
    files.add([5, 9], unit_rows(np.random.default_rng(1), 2))
    with pytest.raises(ParawireError, match=r"made by m 1, not m 2: run `parawire embed`"):
        VectorFiles(tmp_path, "m", "2", 8)
    with pytest.raises(ParawireError, match="come from another store"):
        files.check_store(last_sentence_id=7)
    files.check_store(last_sentence_id=9)
    assert VectorFiles(tmp_path, "m", "2", 8, reset=True).count() == 0
    with pytest.raises(ParawireError, match="no sentence vectors in .*: run `parawire embed`"):
        VectorFiles.existing(tmp_path / "elsewhere")
