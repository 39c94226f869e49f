"""The scale-out VectorStore: one Elasticsearch index per language, `P-vectors-<lang>` (P:
index.prefix), a document per sentence (`_id` = sentence id) holding `sentence_id` and its
`vector`; the model's name, version and dimensions are the mapping's `_meta`.

Search is exact, as with the vector files: a `script_score` query over the `terms` of the
ids asked for scores each by cosine (Elasticsearch's `cosineSimilarity` on a
`dense_vector`; an OpenSearch server's k-NN score script on a `knn_vector`), best first,
ties by lower id. The aligner searches a sentence among its story's or its date window's
sentences only, so a brute-force pass over that filter is what the dense source needs and
what its oracle test compares against; approximate kNN could not be restricted exactly."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from parawire.errors import ParawireError
from parawire.indexer.elasticsearch_index import (
    TERMS_CHUNK,
    ElasticsearchIndex,
    es_errors,
    es_reason,
)
from parawire.indexer.vector_store import check_belongs, model_mismatch, new_ids, no_vector

LOOKUP_CHUNK = 1_000  # ids per mget


class ElasticsearchVectors:
    """A VectorStore in the Elasticsearch cluster of `index` (its client and bulk sending)."""

    def __init__(self, index: ElasticsearchIndex, language: str, model: str, version: str,
                 dimensions: int, reset: bool = False) -> None:
        """The vectors of this model; vectors of another model are an error, or (`reset`)
        deleted and their index made again for this one."""
        self.index, self.client, self.dimensions = index, index.client, dimensions
        with es_errors(index.url):
            self.opensearch = self.client.info()["version"].get("distribution") == "opensearch"
        self.name = vectors_index_name(index, language)
        self.where = f"Elasticsearch index {self.name!r} at {index.url}"
        wanted = {"model": model, "version": version, "dimensions": dimensions}
        found = recorded_model(index, self.name)
        if found is not None and found != wanted and not reset:
            raise model_mismatch(self.where, found, model, version)
        if found != wanted:
            self._create(wanted)
        self.model = f"{model} {version}"

    @classmethod
    def existing(cls, index: ElasticsearchIndex, language: str) -> ElasticsearchVectors:
        """The vectors already stored for `language`, whatever their model (one line when
        none)."""
        name = vectors_index_name(index, language)
        meta = recorded_model(index, name)
        if meta is None:
            raise ParawireError(f"no sentence vectors in Elasticsearch index {name!r} at "
                                f"{index.url}: run `parawire embed`")
        return cls(index, language, str(meta["model"]), str(meta["version"]),
                   int(str(meta["dimensions"])))

    # -- the index ----------------------------------------------------------------
    def _create(self, meta: dict[str, object]) -> None:
        """(Re)create the index for this model: Elasticsearch's `dense_vector` (exact search
        only, so not indexed for HNSW), or an OpenSearch server's `knn_vector`."""
        vector: dict[str, Any] = (
            {"type": "knn_vector", "dimension": self.dimensions} if self.opensearch
            else {"type": "dense_vector", "dims": self.dimensions, "index": False})
        with es_errors(self.index.url):
            self.client.indices.delete(index=self.name, ignore_unavailable=True)
            self.client.indices.create(index=self.name, settings={"number_of_shards": 1},
                                       mappings={"dynamic": "strict", "_meta": meta,
                                                 "properties": {"sentence_id": {"type": "long"},
                                                                "vector": vector}})

    # -- writing ------------------------------------------------------------------
    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Store rows for ids that have none yet, searchable when this returns."""
        if not len(ids):
            return
        added = new_ids(self, ids)
        rows = np.ascontiguousarray(vectors, dtype=np.float32)
        actions = ({"_op_type": "create", "_index": self.name, "_id": str(int(i)),
                    "_source": {"sentence_id": int(i), "vector": row.tolist()}}
                   for i, row in zip(added, rows, strict=True))
        self.index.bulk(actions, "the vector of sentence")
        self._refresh()

    def clear(self) -> None:
        """Drop every row (the index and its model stay)."""
        with es_errors(self.index.url):
            self.client.delete_by_query(index=self.name, query={"match_all": {}},
                                        refresh=True, conflicts="proceed")

    def _refresh(self) -> None:
        with es_errors(self.index.url):
            self.client.indices.refresh(index=self.name)

    # -- reading ------------------------------------------------------------------
    def count(self) -> int:
        """How many sentences have a vector."""
        with es_errors(self.index.url):
            return int(self.client.count(index=self.name)["count"])

    def last_id(self) -> int:
        """The highest sentence id held (0 when empty)."""
        with es_errors(self.index.url):
            found = self.client.search(index=self.name, size=0,
                                       aggs={"last": {"max": {"field": "sentence_id"}}})
        value = found["aggregations"]["last"]["value"]
        return int(value) if value is not None else 0

    def check_store(self, last_sentence_id: int) -> None:
        """One line when these vectors hold a sentence the store does not."""
        check_belongs(self, self.where, last_sentence_id)

    def _documents(self, ids: Sequence[int], source: bool) -> Iterator[dict[str, Any]]:
        """The mget answers for these ids, in order."""
        wanted = [str(int(i)) for i in ids]
        with es_errors(self.index.url):
            for start in range(0, len(wanted), LOOKUP_CHUNK):
                found = self.client.mget(index=self.name, ids=wanted[start:start + LOOKUP_CHUNK],
                                         source=["vector"] if source else False)
                yield from found["docs"]

    def held(self, ids: Sequence[int]) -> np.ndarray:
        """Whether each of these ids has a vector."""
        return np.array([bool(doc.get("found")) for doc in self._documents(ids, False)],
                        dtype=bool)

    def get(self, ids: Sequence[int]) -> np.ndarray:
        """The vectors of these ids, in order; an id without a vector is an error."""
        rows = []
        for i, doc in zip(ids, self._documents(ids, True), strict=True):
            if not doc.get("found"):
                raise no_vector(self.where, int(i))
            rows.append(doc["_source"]["vector"])
        return np.asarray(rows, dtype=np.float32).reshape(len(rows), self.dimensions)

    def search(self, queries: np.ndarray, among: Sequence[int],
               k: int) -> list[list[tuple[int, float]]]:
        """For each query row, the k ids of `among` (those with a vector) with the highest
        cosine, best first (ties by lower id): exact, one msearch per chunk of ids."""
        pool = sorted({int(i) for i in among})
        best: list[list[tuple[int, float]]] = [[] for _ in range(len(queries))]
        if not pool or not len(queries):
            return best
        for start in range(0, len(pool), TERMS_CHUNK):
            chunk = pool[start:start + TERMS_CHUNK]
            searches: list[dict[str, Any]] = []
            for query in np.asarray(queries, dtype=np.float32):
                searches += [{"index": self.name},
                             _exact_search(query.tolist(), chunk, min(k, len(chunk)),
                                           self.opensearch)]
            with es_errors(self.index.url):
                answers = self.client.msearch(searches=searches)["responses"]
            for row, answer in enumerate(answers):
                if "error" in answer:
                    error = answer["error"]
                    cause = (error.get("root_cause") or [error])[0]
                    raise ParawireError(f"the vector search in {self.where} failed: "
                                        f"{es_reason(cause)}")
                hits = [(int(hit["_id"]), float(hit["sort"][0]) - 1.0)
                        for hit in answer["hits"]["hits"]]
                best[row] = sorted(best[row] + hits, key=lambda hit: (-hit[1], hit[0]))[:k]
        return best


def vectors_index_name(index: ElasticsearchIndex, language: str) -> str:
    """The index of one language's vectors."""
    return f"{index.prefix}-vectors-{language}"


def recorded_model(index: ElasticsearchIndex, name: str) -> dict[str, object] | None:
    """The model recorded in the `_meta` of index `name` (None when there is no index)."""
    with es_errors(index.url):
        if not index.client.indices.exists(index=name):
            return None
        mapping = index.client.indices.get_mapping(index=name)
    meta = next(iter(mapping.values()))["mappings"].get("_meta", {})
    return {key: meta.get(key) for key in ("model", "version", "dimensions")}


def _exact_search(query: list[float], ids: list[int], k: int,
                  opensearch: bool) -> dict[str, Any]:
    """A search body: the k ids with the highest cosine to `query`, scored 1 + cosine (a
    score may not be negative), ties by lower id."""
    script: dict[str, Any] = (
        {"lang": "knn", "source": "knn_score",
         "params": {"field": "vector", "query_value": query, "space_type": "cosinesimil"}}
        if opensearch else
        {"source": "cosineSimilarity(params.query_vector, 'vector') + 1.0",
         "params": {"query_vector": query}})
    return {"size": k, "_source": False, "track_total_hits": False,
            "query": {"script_score": {"query": {"terms": {"sentence_id": ids}},
                                       "script": script}},
            "sort": [{"_score": "desc"}, {"sentence_id": "asc"}]}
