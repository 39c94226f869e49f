"""The scale-out SentenceIndex: Elasticsearch (or an OpenSearch-API server) over HTTP.

Layout, for a prefix P: an index template `P-<lang>` (the language's analyzer and the
strict mapping), one index `P-<lang>-1` per language, and two aliases on it: `P-<lang>`
(queries of that language) and `P` (counts, iteration, stats over every language).
Queries use no scripts and no point-in-time: iteration pages with search_after on `id`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from elastic_transport import ConnectionError as TransportConnectionError
from elastic_transport import TransportError, Urllib3HttpNode
from elasticsearch import ApiError, Elasticsearch, helpers

from parawire.config import IndexConfig
from parawire.errors import ParawireError
from parawire.indexer.es_mapping import analysis, es_document, mappings
from parawire.indexer.protocol import HcsssQuery, Hit, IndexStats
from parawire.records import Sentence

MAX_BUCKETS = 10_000
TERMS_CHUNK = 10_000  # ids per terms filter (Elasticsearch's default limit is 65,536)
_INDEX = IndexConfig()
_COMPAT = re.compile(r"application/vnd\.elasticsearch\+([\w-]+); ?compatible-with=\d+")


class PlainJsonNode(Urllib3HttpNode):
    """An HTTP node that sends `application/json` instead of the client's
    `compatible-with` media types, which OpenSearch-API servers reject."""

    def perform_request(self, method: str, target: str, body: bytes | None = None,
                        headers: Any = None, request_timeout: Any = None) -> Any:
        """Rewrite Accept and Content-Type, then send as usual."""
        if headers:
            headers = headers.copy()
            for name in ("accept", "content-type"):
                if name in headers:
                    headers[name] = _COMPAT.sub(r"application/\1", headers[name])
        return super().perform_request(method, target, body=body, headers=headers,
                                       request_timeout=request_timeout)


class ElasticsearchIndex:
    """A SentenceIndex on an Elasticsearch cluster."""

    def __init__(self, url: str, prefix: str = _INDEX.prefix, *,
                 compatible_media_types: bool = _INDEX.compatible_media_types,
                 request_timeout: float = _INDEX.request_timeout,
                 bulk_chunk: int = _INDEX.bulk_chunk, bulk_retries: int = _INDEX.bulk_retries) -> None:
        self.url, self.prefix = url, prefix
        self.bulk_chunk, self.bulk_retries = bulk_chunk, bulk_retries
        # 429 is left to the bulk helper, which backs off; the transport retries the rest.
        options: dict[str, Any] = {"request_timeout": request_timeout, "max_retries": 2,
                                   "retry_on_timeout": True, "retry_on_status": (502, 503, 504)}
        if not compatible_media_types:
            options["node_class"] = PlainJsonNode
        try:
            self.client = Elasticsearch(url, **options)
            self.client.info()
        except (ValueError, TransportError, ApiError) as exc:
            raise ParawireError(f"cannot reach Elasticsearch at {url!r}: {es_reason(exc)}") from None
        self._languages: set[str] = set()

    # -- names --------------------------------------------------------------------
    def alias(self, language: str | None = None) -> str:
        """The alias of one language's index, or of all of them."""
        return self.prefix if language is None else f"{self.prefix}-{language}"

    def _ensure_language(self, language: str) -> None:
        if language in self._languages:
            return
        if not re.fullmatch(r"[a-z]{2,3}", language):
            raise ParawireError(f"cannot index language {language!r}: expected an ISO 639 code")
        alias = self.alias(language)
        with es_errors(self.url):
            if not self.client.indices.exists_alias(name=alias):
                self.client.indices.put_index_template(
                    name=alias, index_patterns=[f"{alias}-*"], priority=100,
                    template={"settings": {"number_of_shards": 1, "analysis": analysis(language)},
                              "mappings": mappings()},
                )
                self.client.indices.create(index=f"{alias}-1",
                                           aliases={alias: {}, self.alias(): {}})
        self._languages.add(language)

    # -- writing ------------------------------------------------------------------
    def add(self, sentences: Iterable[Sentence]) -> int:
        """Bulk-index sentences by id; 429 answers are retried with exponential backoff."""
        return self.bulk(self._actions(sentences), "sentence")

    def bulk(self, actions: Iterable[dict[str, Any]], record: str) -> int:
        """Send bulk actions (429 answers retried with exponential backoff); the first one
        refused is a one-line error naming the `record` and its id. Returns how many went."""
        done = 0
        with es_errors(self.url):
            for ok, item in helpers.streaming_bulk(
                self.client, actions, chunk_size=self.bulk_chunk,
                max_retries=self.bulk_retries, initial_backoff=0.5, max_backoff=30,
                raise_on_error=False,
            ):
                if not ok:
                    failure = next(iter(item.values()))
                    if failure.get("status") == 404 and failure.get("result") == "not_found":
                        continue  # a delete of what is already gone
                    raise ParawireError(f"Elasticsearch refused {record} {failure.get('_id')}: "
                                        f"{es_reason(failure.get('error'))}")
                done += 1
        return done

    def _actions(self, sentences: Iterable[Sentence]) -> Iterator[dict[str, Any]]:
        for sentence in sentences:
            self._ensure_language(sentence.language)
            yield {"_op_type": "index", "_index": self.alias(sentence.language),
                   "_id": str(sentence.id), "_source": es_document(sentence)}

    def commit(self) -> None:
        """Refresh, so that everything added is searchable."""
        with es_errors(self.url):
            self.client.indices.refresh(index=self.alias(), ignore_unavailable=True,
                                        allow_no_indices=True)

    def clear(self) -> None:
        """Delete every language index (templates stay; indexes come back on the next add)."""
        with es_errors(self.url):
            if self.client.indices.exists_alias(name=self.alias()):
                names = list(self.client.indices.get_alias(name=self.alias()))
                self.client.indices.delete(index=",".join(names))
        self._languages.clear()

    # -- reading ------------------------------------------------------------------
    def search(self, query: HcsssQuery) -> list[Hit]:
        """Hits of a HCSSS query: constraints filter (no score), BM25 over the text ranks."""
        body = hcsss_query(query)
        if body is None:
            return []
        return self._hits(self.alias(query.language), body, query.limit)

    def score_of(self, sentence_id: int, text_terms: tuple[str, ...]) -> float:
        """BM25 of `text_terms` against one sentence."""
        if not text_terms:
            return 0.0
        body = {"bool": {"must": [_ranking(text_terms)],
                         "filter": [{"term": {"id": sentence_id}}]}}
        hits = self._hits(self.alias(), body, 1)
        return hits[0].score if hits else 0.0

    def _hits(self, index: str, query: dict[str, Any], limit: int) -> list[Hit]:
        with es_errors(self.url):
            response = self.client.search(
                index=index, query=query, size=limit, sort=["_score", {"id": "asc"}],
                track_scores=True, source=False,
                ignore_unavailable=True, allow_no_indices=True,
            )
        return [Hit(sentence_id=int(hit["_id"]), score=float(hit["_score"] or 0.0))
                for hit in response["hits"]["hits"]]

    def max_sentence_id(self) -> int:
        """The largest id held (0 when empty)."""
        result = self._aggregate({"max_id": {"max": {"field": "id"}}})
        value = result.get("max_id", {}).get("value")
        return int(value) if value is not None else 0

    def count(self) -> int:
        """Number of sentences over every language."""
        with es_errors(self.url):
            return int(self.client.count(index=self.alias(), ignore_unavailable=True,
                                         allow_no_indices=True)["count"])

    def sentence_ids(self, page_size: int = 1000) -> Iterator[int]:
        """Ids in ascending order, paged with search_after on the id."""
        after: list[Any] | None = None
        while True:
            with es_errors(self.url):
                response = self.client.search(
                    index=self.alias(), size=page_size, sort=[{"id": "asc"}],
                    query={"match_all": {}}, source=False, search_after=after,
                    ignore_unavailable=True, allow_no_indices=True,
                )
            page = response["hits"]["hits"]
            yield from (int(hit["_id"]) for hit in page)
            if len(page) < page_size:
                return
            after = page[-1]["sort"]

    def stats(self) -> IndexStats:
        """Terms aggregations on language, topic and outlet, a daily date histogram."""
        aggs: dict[str, Any] = {
            name: {"terms": {"field": name, "size": MAX_BUCKETS}}
            for name in ("language", "topic", "source")
        }
        aggs["days"] = {"date_histogram": {"field": "published", "calendar_interval": "day",
                                           "min_doc_count": 1}}
        result = self._aggregate(aggs)

        def buckets(name: str) -> dict[str, int]:
            return {str(b["key"]): int(b["doc_count"])
                    for b in result.get(name, {}).get("buckets", [])}

        by_day = {datetime.fromtimestamp(b["key"] / 1000, UTC).date().isoformat(): int(b["doc_count"])
                  for b in result.get("days", {}).get("buckets", []) if b["doc_count"]}
        return IndexStats(total=self.count(), by_language=buckets("language"),
                          by_topic=buckets("topic"), by_source=buckets("source"),
                          by_day=dict(sorted(by_day.items())))

    def _aggregate(self, aggs: dict[str, Any]) -> dict[str, Any]:
        with es_errors(self.url):
            response = self.client.search(index=self.alias(), size=0, aggs=aggs,
                                          ignore_unavailable=True, allow_no_indices=True)
        return response.get("aggregations", {})


def _ranking(text_terms: tuple[str, ...]) -> dict[str, Any]:
    return {"match": {"text": {"query": " ".join(text_terms)}}}


def _among(ids: tuple[int, ...]) -> dict[str, Any]:
    """A filter to these sentence ids, in `terms` lists of TERMS_CHUNK ids."""
    chunks = [list(ids[start:start + TERMS_CHUNK]) for start in range(0, len(ids), TERMS_CHUNK)]
    if len(chunks) == 1:
        return {"terms": {"id": chunks[0]}}
    return {"bool": {"should": [{"terms": {"id": chunk}} for chunk in chunks],
                     "minimum_should_match": 1}}


def hcsss_query(q: HcsssQuery) -> dict[str, Any] | None:
    """The query DSL of a HCSSS query (None when it cannot match anything): every
    constraint a filter, the reference's words the only scored clause."""
    filters: list[dict[str, Any]] = [{"term": {"pn": name}} for name in q.proper_nouns]
    if q.min_pn_count > len(q.proper_nouns):
        filters.append({"range": {"n_pn": {"gte": q.min_pn_count}}})
    if q.common_nouns:
        filters.append({"bool": {"should": [{"term": {"cn": noun}} for noun in q.common_nouns],
                                 "minimum_should_match": q.min_cn_matches}})
    elif q.min_cn_matches > 0:
        return None
    if q.among_ids == ():
        return None
    filters.append({"term": {"language": q.language}})
    if q.topic:
        filters.append({"term": {"topic": q.topic}})
    if q.day_from is not None or q.day_to is not None:
        window = {key: day for key, day in (("gte", q.day_from), ("lte", q.day_to))
                  if day is not None}
        filters.append({"range": {"day": window}})
    if q.among_ids is not None:
        filters.append(_among(q.among_ids))
    excluded: list[dict[str, Any]] = [{"term": {"article_id": q.exclude_article_id}},
                                      {"term": {"vkey": q.exclude_vkey}}]
    if q.exclude_source:
        excluded.append({"term": {"source": q.exclude_source}})
    query: dict[str, Any] = {"filter": filters, "must_not": excluded}
    if q.text_terms:
        query["should"] = [_ranking(q.text_terms)]
    return {"bool": query}


@contextmanager
def es_errors(url: str) -> Iterator[None]:
    """Turns transport and API failures into one-line ParawireErrors."""
    try:
        yield
    except TransportConnectionError as exc:
        raise ParawireError(f"cannot reach Elasticsearch at {url!r}: {es_reason(exc)}") from None
    except (ApiError, TransportError, helpers.BulkIndexError) as exc:
        raise ParawireError(f"Elasticsearch at {url!r} failed: {es_reason(exc)}") from None


def es_reason(error: Any) -> str:
    """One line out of a client exception or an error object of a response."""
    if isinstance(error, ApiError):
        info = error.info if isinstance(error.info, dict) else {}
        detail = info.get("error", error.message)
        if isinstance(detail, dict):
            detail = f"{detail.get('type')}: {detail.get('reason')}"
        return f"{error.meta.status} {detail}"
    if isinstance(error, dict):
        return f"{error.get('type')}: {error.get('reason')}"
    return " ".join(str(error).split())[:300]
