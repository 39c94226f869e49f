"""Operator reads: how much each table holds, and volumes by day, outlet, topic, language."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa

from parawire.records import VolumeCount
from parawire.store import schema
from parawire.store.base import StoreBase

_SAVED = 1  # the id of the one saved overview row


def _grouped(columns: Any, select_from: Any) -> sa.Select:
    """Counts grouped by (day, outlet, topic, language) over some source of rows."""
    published, source, topic, language = columns
    return (sa.select(published, source, topic, language, sa.func.count())
            .select_from(select_from).group_by(published, source, topic, language))


def _volume_queries(run_id: int | None) -> dict[str, sa.Select]:
    """Per metric, its counts by (day, outlet, topic, language); references and pairs of
    run `run_id` only (none without a run). Each reads a covering index
    (ix_articles_volume, ix_sentences_volume) or joins one run's rows to it by key."""
    articles, sentences = schema.articles, schema.sentences
    references, pairs = schema.alignment_references, schema.pairs
    sentence_columns = tuple(sentences.c[name] for name in schema.VOLUME_COLUMNS)
    run = -1 if run_id is None else run_id
    return {
        "articles": _grouped(tuple(articles.c[name] for name in schema.VOLUME_COLUMNS),
                             articles),
        "sentences": _grouped(sentence_columns, sentences),
        "references": _grouped(sentence_columns, references.join(
            sentences, sentences.c.id == references.c.sentence_id)).where(
                references.c.run_id == run),
        "pairs": _grouped(sentence_columns, pairs.join(
            sentences, sentences.c.id == pairs.c.input_sentence_id)).where(pairs.c.run_id == run),
    }


class OverviewFingerprint(NamedTuple):
    """The highest id and the row count of the tables the overview counts."""

    last_article: int
    articles: int
    last_sentence: int
    sentences: int
    last_run: int
    references: int
    last_pair: int
    pairs: int


class OverviewQueries(StoreBase):
    """Counts for `parawire status` and the dashboard's overview."""

    def counts(self) -> dict[str, int]:
        """Row counts per table, for `parawire status`."""
        tables = {
            "articles": schema.articles, "sentences": schema.sentences,
            "crawl_runs": schema.crawl_runs, "alignment_runs": schema.alignment_runs,
            "pairs": schema.pairs,
        }
        with self.engine.connect() as conn:
            result = {
                name: conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
                for name, table in tables.items()
            }
            result["articles_annotated"] = conn.execute(
                sa.select(sa.func.count()).where(schema.articles.c.annotated.is_(True))
            ).scalar_one()
        return result

    def volume_counts(self, run_id: int | None) -> dict[str, list[VolumeCount]]:
        """Articles, sentences, and run `run_id`'s references and pairs, counted per (day,
        outlet, topic, language); references and pairs by their (input) sentence's values.
        The four counts run at once, each on a connection of its own (the overview takes
        as long as the longest, not as their sum)."""
        queries = _volume_queries(run_id)
        with ThreadPoolExecutor(len(queries), thread_name_prefix="volume-count") as pool:
            return dict(zip(queries, pool.map(self._volumes, queries.values()), strict=True))

    def _volumes(self, query: sa.Select) -> list[VolumeCount]:
        with self.engine.connect() as conn:
            return [VolumeCount(*row) for row in conn.execute(query)]

    def run_totals(self) -> dict[int, dict[str, int]]:
        """References and pairs per alignment run (counted on the run-keyed indexes)."""
        totals: dict[int, dict[str, int]] = {}
        queries = {"references": schema.alignment_references, "pairs": schema.pairs}
        with self.engine.connect() as conn:
            for run_id in conn.execute(sa.select(schema.alignment_runs.c.id)).scalars():
                totals[run_id] = dict.fromkeys(queries, 0)
            for metric, table in queries.items():
                grouped = sa.select(table.c.run_id, sa.func.count()).group_by(table.c.run_id)
                for run_id, count in conn.execute(grouped):
                    totals.setdefault(run_id, dict.fromkeys(queries, 0))[metric] = count
        return totals

    def overview_fingerprint(self) -> OverviewFingerprint:
        """Cheap values that change whenever a table volume_counts() counts changes (each a
        maximum or count read from an index)."""
        articles, sentences, pairs = schema.articles, schema.sentences, schema.pairs
        query = sa.select(
            sa.select(sa.func.coalesce(sa.func.max(articles.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(articles).scalar_subquery(),
            sa.select(sa.func.coalesce(sa.func.max(sentences.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(sentences).scalar_subquery(),
            sa.select(sa.func.coalesce(sa.func.max(schema.alignment_runs.c.id), 0))
            .scalar_subquery(),
            sa.select(sa.func.count()).select_from(schema.alignment_references).scalar_subquery(),
            sa.select(sa.func.coalesce(sa.func.max(pairs.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(pairs).scalar_subquery(),
        )
        with self.engine.connect() as conn:
            return OverviewFingerprint(*conn.execute(query).one())

    def saved_overview(self) -> tuple[tuple[int, ...], dict[str, Any], datetime] | None:
        """The last overview saved, the fingerprint it was counted at, and when."""
        table = schema.dashboard_overview
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table).where(table.c.id == _SAVED)).first()
        return None if row is None else (tuple(row.fingerprint), row.overview, row.counted_at)

    def save_overview(self, fingerprint: tuple[int, ...], overview: dict[str, Any],
                      counted_at: datetime) -> None:
        """Keep an overview (JSON values) and the fingerprint it was counted at."""
        values = {"fingerprint": list(fingerprint), "overview": overview,
                  "counted_at": counted_at}
        table = schema.dashboard_overview
        with self.engine.begin() as conn:
            insert = self._insert(table).values(id=_SAVED, **values)
            conn.execute(insert.on_conflict_do_update(index_elements=[table.c.id], set_=values))
