"""The embedded SentenceIndex: a tantivy directory with Lucene-style BM25."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from datetime import date
from pathlib import Path

import tantivy

from parawire.errors import ParawireError
from parawire.indexer.fields import document
from parawire.indexer.protocol import HcsssQuery, Hit, IndexStats
from parawire.records import Sentence

MAX_DAYS = 100_000  # day buckets an aggregation may return
_RAW_FIELDS = ("pn", "cn", "entity_types", "language", "topic", "source", "vkey")
WRITER_HEAP_BYTES = 256 * 1024 * 1024


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    builder.add_integer_field("article_id", indexed=True)
    builder.add_integer_field("day", indexed=True, fast=True)
    # How many entity keys a sentence has: a sparse reference's hits need min_pn of them.
    builder.add_integer_field("n_pn", indexed=True, fast=True)
    builder.add_text_field("text", tokenizer_name="default")
    builder.add_text_field("lemmas", tokenizer_name="default")
    for name in _RAW_FIELDS:
        # Common nouns are also stored: the search checks their overlap on the few hits
        # that hold every proper noun (see TantivyIndex.search).
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic",
                               stored=name == "cn")
    return builder.build()


class TantivyIndex:
    """A SentenceIndex on a tantivy directory (or in memory when path is None)."""

    def __init__(self, path: Path | None, *, recreate: bool = False) -> None:
        """Open (or create) the index; `recreate` starts over at `path`, whatever was there."""
        self.schema = _schema()
        try:
            if path is None:
                self.index = tantivy.Index(self.schema)
            else:
                if recreate and path.exists():
                    shutil.rmtree(path)
                path.mkdir(parents=True, exist_ok=True)
                self.index = tantivy.Index(self.schema, path=str(path), reuse=True)
        except ValueError as exc:
            if "schema does not match" in str(exc):
                raise ParawireError(f"the tantivy index at {path} has an older schema: "
                                    "run `parawire index rebuild`") from None
            raise ParawireError(f"cannot open the tantivy index at {path}: {exc}") from None
        except OSError as exc:
            raise ParawireError(f"cannot open the tantivy index at {path}: {exc}") from None
        self._writer: tantivy.IndexWriter | None = None

    # -- writing ------------------------------------------------------------------
    def _get_writer(self) -> tantivy.IndexWriter:
        if self._writer is None:
            try:
                self._writer = self.index.writer(WRITER_HEAP_BYTES, num_threads=1)
            except ValueError as exc:
                raise ParawireError(f"the tantivy index is locked by another writer: {exc}") from None
        return self._writer

    def add(self, sentences: Iterable[Sentence]) -> int:
        """Index sentences, replacing earlier copies with the same id."""
        writer = self._get_writer()
        added = 0
        for sentence in sentences:
            fields = document(sentence)
            writer.delete_documents_by_term("id", fields["id"])
            doc = tantivy.Document()
            for name, value in fields.items():
                if value is None:
                    continue
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, int):
                        doc.add_integer(name, item)
                    else:
                        doc.add_text(name, item)
            writer.add_document(doc)
            added += 1
        return added

    def commit(self) -> None:
        """Commit the writer's buffer and make it visible to searches."""
        if self._writer is not None:
            self._writer.commit()
            self._writer.wait_merging_threads()
            self._writer = None
        self.index.reload()

    def clear(self) -> None:
        """Delete every document."""
        self._get_writer().delete_all_documents()
        self.commit()

    # -- reading ------------------------------------------------------------------
    def _term(self, field: str, value: str | int) -> tantivy.Query:
        return tantivy.Query.term_query(self.schema, field, value)

    def _text_query(self, terms: tuple[str, ...]) -> tantivy.Query | None:
        if not terms:
            return None
        return tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, self._term("text", term)) for term in terms]
        )

    def _constraints(self, q: HcsssQuery, *, common_nouns: bool = True
                     ) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        must = tantivy.Occur.Must
        clauses = [(must, self._term("pn", term)) for term in q.proper_nouns]
        if q.min_pn_count > len(q.proper_nouns):
            clauses.append((must, tantivy.Query.range_query(
                self.schema, "n_pn", tantivy.FieldType.Integer, q.min_pn_count, None)))
        if common_nouns:
            clauses.append((must, tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, self._term("cn", term)) for term in q.common_nouns],
                minimum_number_should_match=q.min_cn_matches,
            )))
        clauses.append((must, self._term("language", q.language)))
        if q.topic:
            clauses.append((must, self._term("topic", q.topic)))
        if q.day_from is not None and q.day_to is not None:
            # each day a term: cheaper to intersect than a range over the day column
            clauses.append((must, tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, self._term("day", day))
                 for day in range(q.day_from, q.day_to + 1)])))
        elif q.day_from is not None or q.day_to is not None:
            clauses.append((must, tantivy.Query.range_query(
                self.schema, "day", tantivy.FieldType.Integer, q.day_from, q.day_to)))
        clauses.append((tantivy.Occur.MustNot, self._term("article_id", q.exclude_article_id)))
        clauses.append((tantivy.Occur.MustNot, self._term("vkey", q.exclude_vkey)))
        if q.exclude_source:
            clauses.append((tantivy.Occur.MustNot, self._term("source", q.exclude_source)))
        if q.among_ids is not None:
            clauses.append((must, tantivy.Query.term_set_query(self.schema, "id",
                                                               list(q.among_ids))))
        return clauses

    def _ranked(self, query: HcsssQuery, *, common_nouns: bool) -> tantivy.Query:
        """The constraints (scoring nothing) with the text terms ranking the hits."""
        filters = tantivy.Query.const_score_query(
            tantivy.Query.boolean_query(self._constraints(query, common_nouns=common_nouns)),
            0.0,
        )
        clauses = [(tantivy.Occur.Must, filters)]
        text = self._text_query(query.text_terms)
        if text is not None:
            clauses.append((tantivy.Occur.Should, text))
        return tantivy.Query.boolean_query(clauses)

    def search(self, query: HcsssQuery) -> list[Hit]:
        """Hits of a HCSSS query: constraints score nothing, the text terms rank.

        With proper nouns to require, the engine is asked without the common-noun group
        (matching it walks every posting list of the reference's nouns, which grows with
        the index) and the overlap is counted on the stored nouns of the few hits that hold
        every name. When that first answer fills `limit`, hits may lie beyond it, so the
        whole query goes to the engine instead: the hits are the same either way.
        """
        if query.among_ids == ():
            return []
        if not query.proper_nouns:
            return self._hits(self._ranked(query, common_nouns=True), query.limit)
        searcher = self.index.searcher()
        named = searcher.search(self._ranked(query, common_nouns=False), query.limit,
                                count=False).hits
        if len(named) == query.limit:
            return self._hits(self._ranked(query, common_nouns=True), query.limit)
        wanted = set(query.common_nouns)
        hits = []
        for score, address in named:
            doc = searcher.doc(address)
            if len(wanted.intersection(doc.get_all("cn"))) >= query.min_cn_matches:
                hits.append(Hit(sentence_id=int(doc.get_first("id")), score=float(score)))
        return hits

    def score_of(self, sentence_id: int, text_terms: tuple[str, ...]) -> float:
        """BM25 of `text_terms` against one sentence."""
        text = self._text_query(text_terms)
        if text is None:
            return 0.0
        query = tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, text), (tantivy.Occur.Must, tantivy.Query.const_score_query(
                self._term("id", sentence_id), 0.0))]
        )
        hits = self._hits(query, 1)
        return hits[0].score if hits else 0.0

    def _hits(self, query: tantivy.Query, limit: int) -> list[Hit]:
        searcher = self.index.searcher()
        result = searcher.search(query, limit, count=False)
        addresses = [address for _, address in result.hits]
        ids = searcher.fast_field_values("id", addresses) if addresses else []
        return [Hit(sentence_id=int(i), score=float(score))
                for (score, _), i in zip(result.hits, ids, strict=True)]

    def max_sentence_id(self) -> int:
        """The largest id held (0 when empty)."""
        searcher = self.index.searcher()
        if searcher.num_docs == 0:
            return 0
        result = searcher.search(tantivy.Query.all_query(), 1, count=False, order_by_field="id")
        return int(result.hits[0][0]) if result.hits else 0

    def count(self) -> int:
        """Number of live documents."""
        return self.index.searcher().num_docs

    def sentence_ids(self, page_size: int = 1000) -> Iterator[int]:
        """Ids in ascending order: each page is a range query above the last id seen."""
        searcher = self.index.searcher()
        after: int | None = None
        while True:
            query = (tantivy.Query.all_query() if after is None else tantivy.Query.range_query(
                self.schema, "id", tantivy.FieldType.Integer, after + 1, None))
            result = searcher.search(query, page_size, count=False, order_by_field="id",
                                     order=tantivy.Order.Asc)
            page = [int(value) for value, _ in result.hits]
            yield from page
            if len(page) < page_size:
                return
            after = page[-1]

    def stats(self) -> IndexStats:
        """Term counts of the keyword fields (live documents only) and a terms
        aggregation over the day fast field."""
        searcher = self.index.searcher()
        live = tantivy.Query.all_query()

        def terms(field: str) -> dict[str, int]:
            return dict(searcher.terms_with_prefix(field, "", filter_query=live))

        days = searcher.aggregate(live, {"days": {"terms": {"field": "day", "size": MAX_DAYS}}})
        by_day = {date.fromordinal(int(bucket["key"])).isoformat(): int(bucket["doc_count"])
                  for bucket in days["days"]["buckets"]}
        return IndexStats(total=searcher.num_docs, by_language=terms("language"),
                          by_topic=terms("topic"), by_source=terms("source"),
                          by_day=dict(sorted(by_day.items())))
