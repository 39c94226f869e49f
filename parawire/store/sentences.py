"""Annotated sentences: what the annotate stage writes and the later stages read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from parawire.records import CollocationCounts, Sentence, SentenceNouns
from parawire.store import schema
from parawire.store.collocations import CollocationQueries
from parawire.store.rows import sentence_record, sentence_values


class SentenceQueries(CollocationQueries):
    """Annotated sentences (with the collocation counts kept over them)."""

    def save_annotations(self, article_id: int, sentences: list[Sentence],
                         counts: CollocationCounts | None = None, *,
                         pending_only: bool = False) -> bool:
        """Store an article's sentences and mark it annotated, in one transaction; with
        `counts` (its sentences' collocation counts), add them to its language's counts.
        With `pending_only`, an article that another process annotated meanwhile is left as
        it is and False returned, so two annotate runs at once store nothing twice. Inside
        `transaction()` it joins that transaction.

        Re-annotating an article keeps the ids of the sentences at positions it already had
        (pairs and the index refer to them); positions it no longer has are deleted."""
        table = schema.sentences
        articles = schema.articles

        def save(conn: Connection) -> bool:
            if pending_only:
                self._lock(conn, f"article:{article_id}")
                if conn.execute(sa.select(articles.c.annotated)
                                .where(articles.c.id == article_id)).scalar_one():
                    return False
            self._recount(conn, article_id, counts)
            stored = dict(conn.execute(sa.select(table.c.position, table.c.id)
                                       .where(table.c.article_id == article_id)).all())
            kept = {s.position for s in sentences}
            gone = [sid for position, sid in stored.items() if position not in kept]
            if gone:
                conn.execute(table.delete().where(table.c.id.in_(gone)))
            for sentence in sentences:
                if sentence.position in stored:
                    conn.execute(table.update().where(table.c.id == stored[sentence.position])
                                 .values(sentence_values(sentence)))
            new = [sentence_values(s) for s in sentences if s.position not in stored]
            if new:
                conn.execute(table.insert(), new)
            conn.execute(articles.update().where(articles.c.id == article_id)
                         .values(annotated=True, collocations_counted=counts is not None))
            return True

        return self._transaction(save)

    def iter_sentences(self, after_id: int = 0, batch_size: int = 2000,
                       language: str | None = None,
                       min_story_outlets: int = 0) -> Iterator[list[Sentence]]:
        """Batches of sentences with id > after_id, in id order; with `min_story_outlets`,
        only those whose article is in a story told by at least that many outlets."""
        table = schema.sentences
        conditions = [table.c.language == language] if language else []
        if min_story_outlets:
            stories, members = schema.stories, schema.story_articles
            told = (sa.select(members.c.article_id)
                    .join(stories, stories.c.id == members.c.story_id)
                    .where(sa.func.json_array_length(stories.c.outlets) >= min_story_outlets))
            conditions.append(table.c.article_id.in_(told))
        yield from self._batches(table, conditions, sentence_record, after_id, batch_size)

    def sentence_nouns(self, language: str | None = None, topic: str | None = None,
                       since: date | None = None, until: date | None = None,
                       batch_size: int = 5000) -> Iterator[list[SentenceNouns]]:
        """Batches of the nouns (and positions) of the sentences in a scope, in id order: a
        language, a topic, published on or after `since` and on or before `until` (None: any;
        with a date bound, sentences without a date are out)."""
        table = schema.sentences
        conditions = [column == value for column, value in
                      ((table.c.language, language), (table.c.topic, topic)) if value]
        if since:
            conditions.append(table.c.published >= since)
        if until:
            conditions.append(table.c.published <= until)
        columns = [table.c.id, table.c.entity_keys, table.c.common_nouns, table.c.position]
        yield from self._batches(table, conditions, lambda row: SentenceNouns(*row), 0,
                                 batch_size, columns)

    def count_sentences(self, after_id: int = 0) -> int:
        """How many sentences have id > after_id."""
        return self._count(schema.sentences.c.id > after_id)

    def sentence_languages(self) -> list[str]:
        """The languages of the stored sentences, sorted."""
        column = schema.sentences.c.language
        with self.engine.connect() as conn:
            return list(conn.scalars(sa.select(column).distinct().order_by(column)))

    def last_sentence_id(self) -> int:
        """The highest sentence id (0 when there is none)."""
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.max(schema.sentences.c.id))).scalar() or 0)

    def sentences_by_id(self, ids: Iterable[int]) -> dict[int, Sentence]:
        """The sentences with the given ids."""
        wanted = sorted(set(ids))
        found: dict[int, Sentence] = {}
        table = schema.sentences
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                for row in conn.execute(sa.select(table).where(table.c.id.in_(chunk))):
                    found[row.id] = sentence_record(row)
        return found
