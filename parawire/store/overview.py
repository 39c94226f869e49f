"""Operator reads: how much each table holds, and volumes by day, outlet, topic, language."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from parawire.records import VolumeCount
from parawire.store import schema
from parawire.store.base import StoreBase


def _grouped(columns: Any, select_from: Any) -> sa.Select:
    """Counts grouped by (day, outlet, topic, language) over some source of rows."""
    published, source, topic, language = columns
    return (sa.select(published, source, topic, language, sa.func.count())
            .select_from(select_from).group_by(published, source, topic, language))


def _volume_queries() -> dict[str, sa.Select]:
    articles, sentences = schema.articles, schema.sentences
    sentence_columns = (sentences.c.published, sentences.c.source, sentences.c.topic,
                        sentences.c.language)
    references = schema.alignment_references.join(
        sentences, sentences.c.id == schema.alignment_references.c.sentence_id)
    pairs = schema.pairs.join(sentences, sentences.c.id == schema.pairs.c.input_sentence_id)
    return {
        "articles": _grouped((articles.c.published, articles.c.source, articles.c.topic,
                              articles.c.language), articles),
        "sentences": _grouped(sentence_columns, sentences),
        "references": _grouped(sentence_columns, references),
        "pairs": _grouped(sentence_columns, pairs),
    }


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

    def volume_counts(self) -> dict[str, list[VolumeCount]]:
        """Articles, sentences, references and pairs counted per (day, outlet, topic,
        language); references and pairs by their (input) sentence's values."""
        with self.engine.connect() as conn:
            return {metric: [VolumeCount(*row) for row in conn.execute(query)]
                    for metric, query in _volume_queries().items()}

    def overview_fingerprint(self) -> tuple[int, ...]:
        """Cheap values that change whenever a table volume_counts() counts changes."""
        articles, sentences, pairs = schema.articles, schema.sentences, schema.pairs
        query = sa.select(
            sa.select(sa.func.coalesce(sa.func.max(articles.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(articles).scalar_subquery(),
            sa.select(sa.func.coalesce(sa.func.max(sentences.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(sentences).scalar_subquery(),
            sa.select(sa.func.count()).select_from(schema.alignment_references).scalar_subquery(),
            sa.select(sa.func.coalesce(sa.func.max(pairs.c.id), 0)).scalar_subquery(),
            sa.select(sa.func.count()).select_from(pairs).scalar_subquery(),
        )
        with self.engine.connect() as conn:
            return tuple(conn.execute(query).one())
