"""Collocation counts per language, kept with the sentences they count, so the annotate
stage reads the counts instead of every stored sentence."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from parawire.records import CollocationCounts, Sentence
from parawire.store import schema
from parawire.store.base import StoreBase
from parawire.store.rows import sentence_record


class CollocationQueries(StoreBase):
    """The collocation counts and which articles' sentences they cover."""

    def collocation_counts(self, language: str) -> CollocationCounts:
        """The counts over the sentences of every covered article of a language."""
        words, pairs, totals = (schema.collocation_words, schema.collocation_pairs,
                                schema.collocation_totals)
        with self.engine.connect() as conn:
            word_rows = conn.execute(sa.select(words.c.word, words.c.occurrences)
                                     .where(words.c.language == language))
            counted = Counter({word: n for word, n in word_rows})
            pair_rows = conn.execute(
                sa.select(pairs.c.first_word, pairs.c.second_word, pairs.c.occurrences)
                .where(pairs.c.language == language))
            return CollocationCounts(
                words=counted,
                pairs=Counter({(first, second): n for first, second, n in pair_rows}),
                tokens=conn.execute(sa.select(totals.c.occurrences)
                                    .where(totals.c.language == language)).scalar() or 0,
            )

    def uncounted_sentences(self, language: str,
                            batch_size: int = 200) -> Iterator[tuple[list[int], list[Sentence]]]:
        """Annotated articles of a language that the counts do not cover (annotated before
        counts were kept, or without counts), a batch at a time: their ids and sentences."""
        articles, sentences = schema.articles, schema.sentences
        conditions = [articles.c.language == language, articles.c.annotated.is_(True),
                      articles.c.collocations_counted.is_(False)]
        for ids in self._batches(articles, conditions, lambda row: row.id, 0, batch_size,
                                 [articles.c.id]):
            query = (sa.select(sentences).where(sentences.c.article_id.in_(ids))
                     .order_by(sentences.c.id))
            with self.engine.connect() as conn:
                yield ids, [sentence_record(row) for row in conn.execute(query)]

    def add_collocation_counts(self, language: str, article_ids: Iterable[int],
                               counts: CollocationCounts) -> None:
        """Add the counts of these articles' sentences and mark them covered, in one transaction."""
        articles = schema.articles
        with self.engine.begin() as conn:
            self._add_counts(conn, language, counts)
            conn.execute(articles.update().where(articles.c.id.in_(list(article_ids)))
                         .values(collocations_counted=True))

    def _recount(self, conn: Connection, article_id: int, counts: CollocationCounts | None) -> None:
        """Inside the transaction that replaces an article's sentences: add the new sentences'
        counts. An article already covered had its old sentences counted, which cannot be
        taken out again: then the language's counts start over (the next annotate run counts
        its other articles again)."""
        articles = schema.articles
        row = conn.execute(sa.select(articles.c.language, articles.c.collocations_counted)
                           .where(articles.c.id == article_id)).one()
        if row.collocations_counted:
            for table in (schema.collocation_words, schema.collocation_pairs,
                          schema.collocation_totals):
                conn.execute(table.delete().where(table.c.language == row.language))
            conn.execute(articles.update().where(articles.c.language == row.language)
                         .values(collocations_counted=False))
        if counts is not None:
            self._add_counts(conn, row.language, counts)

    def _add_counts(self, conn: Connection, language: str, counts: CollocationCounts) -> None:
        # Rows in key order, so that concurrent writers lock them in the same order.
        self._add_to(conn, schema.collocation_words, "occurrences", [
            {"language": language, "word": word, "occurrences": n}
            for word, n in sorted(counts.words.items())])
        self._add_to(conn, schema.collocation_pairs, "occurrences", [
            {"language": language, "first_word": first, "second_word": second, "occurrences": n}
            for (first, second), n in sorted(counts.pairs.items())])
        if counts.tokens:
            self._add_to(conn, schema.collocation_totals, "occurrences",
                         [{"language": language, "occurrences": counts.tokens}])
