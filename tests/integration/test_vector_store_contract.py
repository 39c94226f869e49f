"""One contract over every VectorStore backend: the vector files, and Elasticsearch.

Storage (rows by id in any order, an id added once, the model recorded and checked, a store
mismatch named, clearing) runs over the files and over an OpenSearch-API server (osmem,
which maps `knn_vector` but runs no vector scoring). Exact search against a brute-force
product needs a server that scores vectors: a real Elasticsearch 8, such as compose's
(`docker compose up -d elasticsearch`, then `PARAWIRE_TEST_ES_URL=http://127.0.0.1:9200
.venv/bin/python -m pytest tests/integration/test_vector_store_contract.py
tests/integration/test_dense_matches_oracle.py`); without one those cases skip, saying so."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import numpy as np
import pytest

from parawire.errors import ParawireError
from parawire.indexer import ElasticsearchIndex, ElasticsearchVectors, VectorFiles, VectorStore

# (model, version, dimensions, reset) -> a store; () -> the stored one, whatever its model
Opener = tuple[Callable[[str, str, int, bool], VectorStore], Callable[[], VectorStore]]


def elasticsearch_opener(url: str) -> Opener:
    # plain JSON: both osmem and an 8.x server refuse the 9.x client's media types
    index = ElasticsearchIndex(url, f"t{uuid.uuid4().hex[:12]}", compatible_media_types=False)
    return ((lambda model, version, dimensions, reset:
             ElasticsearchVectors(index, "en", model, version, dimensions, reset)),
            lambda: ElasticsearchVectors.existing(index, "en"))


@pytest.fixture(params=["files", "opensearch-api", "elasticsearch"])
def opener(request, tmp_path) -> Opener:
    """How to open one backend's vectors of one language, empty at first."""
    if request.param == "files":
        return ((lambda model, version, dimensions, reset:
                 VectorFiles(tmp_path, model, version, dimensions, reset)),
                lambda: VectorFiles.existing(tmp_path))
    if request.param == "opensearch-api":
        return elasticsearch_opener(request.getfixturevalue("opensearch_api_url"))
    return elasticsearch_opener(request.getfixturevalue("real_elasticsearch_url"))


@pytest.fixture(params=["files", "elasticsearch"])
def searchable(request, tmp_path) -> Opener:
    """A backend whose server scores vectors (the files always; Elasticsearch when given)."""
    if request.param == "files":
        return ((lambda model, version, dimensions, reset:
                 VectorFiles(tmp_path, model, version, dimensions, reset)),
                lambda: VectorFiles.existing(tmp_path))
    return elasticsearch_opener(request.getfixturevalue("real_elasticsearch_url"))


def unit_rows(rng: np.random.Generator, count: int, dimensions: int = 8) -> np.ndarray:
    rows = rng.normal(size=(count, dimensions)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_rows_are_kept_by_id_whatever_the_order_added(opener):
    open_for, _ = opener
    store = open_for("m", "1", 8, False)
    rng = np.random.default_rng(2)
    vectors = unit_rows(rng, 6)
    store.add([40, 12, 7], vectors[:3])
    store.add([3, 90, 15], vectors[3:])  # a later append may hold lower ids
    assert store.count() == 6 and store.last_id() == 90
    assert store.held([7, 8, 90, 1]).tolist() == [True, False, True, False]
    assert np.allclose(store.get([90, 7, 3]), vectors[[4, 2, 3]], atol=1e-6)
    with pytest.raises(ParawireError, match="sentence 8 has no vector in .*run `parawire embed`"):
        store.get([7, 8])


def test_a_vector_is_added_once(opener):
    store = opener[0]("m", "1", 8, False)
    rng = np.random.default_rng(4)
    store.add([1, 2, 3], unit_rows(rng, 3))
    for repeated in ([2], [7, 7]):
        with pytest.raises(ParawireError, match="added once"):
            store.add(repeated, unit_rows(rng, len(repeated)))
    assert store.count() == 3


def test_the_model_is_recorded_and_another_one_is_one_line(opener):
    open_for, stored = opener
    with pytest.raises(ParawireError, match="no sentence vectors in .*: run `parawire embed`"):
        stored()
    store = open_for("m", "1", 8, False)
    store.add([5, 9], unit_rows(np.random.default_rng(1), 2))
    assert stored().model == "m 1" and stored().count() == 2
    with pytest.raises(ParawireError, match=r"made by m 1, not m 2: run `parawire embed`"):
        open_for("m", "2", 8, False)
    with pytest.raises(ParawireError, match="come from another store"):
        store.check_store(last_sentence_id=7)
    store.check_store(last_sentence_id=9)
    taken_over = open_for("m", "2", 8, True)
    assert taken_over.count() == 0 and stored().model == "m 2"


def test_clear_drops_every_row_and_keeps_the_model(opener):
    open_for, stored = opener
    store = open_for("m", "1", 8, False)
    store.add([1, 2], unit_rows(np.random.default_rng(6), 2))
    store.clear()
    assert store.count() == 0 and store.last_id() == 0 and stored().model == "m 1"
    store.add([2], unit_rows(np.random.default_rng(7), 1))
    assert store.count() == 1


def test_search_equals_the_exact_product_over_the_ids_asked(searchable):
    store = searchable[0]("m", "1", 8, False)
    rng = np.random.default_rng(3)
    ids = np.arange(1, 61) * 2
    vectors = unit_rows(rng, 60)
    store.add([int(i) for i in ids[30:]], vectors[30:])
    store.add([int(i) for i in ids[:30][::-1]], vectors[:30][::-1])
    queries = unit_rows(rng, 5)
    among = [int(i) for i in ids[::3]] + [999]  # 999 has no vector
    chosen = np.isin(ids, among)
    scores = queries @ vectors[chosen].T
    for k in (1, 4, 30):
        found = store.search(queries, among, k)
        for row, hits in enumerate(found):
            best = np.argsort(-scores[row], kind="stable")[:k]
            assert [i for i, _ in hits] == [int(ids[chosen][j]) for j in best]
            assert np.allclose([s for _, s in hits], scores[row][best], atol=1e-5)
    assert store.search(queries, [999], 3) == [[] for _ in range(5)]


def test_a_server_that_cannot_score_vectors_is_one_line(opensearch_api_url):
    store = elasticsearch_opener(opensearch_api_url)[0]("m", "1", 8, False)
    rows = unit_rows(np.random.default_rng(8), 3)
    store.add([1, 2, 3], rows)
    with pytest.raises(ParawireError, match=r"the vector search in Elasticsearch index "
                                            r"'t\w+-vectors-en' at .* failed: .*not supported"):
        store.search(rows[:1], [1, 2, 3], 2)
