"""Operator reads: how much each table holds."""

from __future__ import annotations

import sqlalchemy as sa

from parawire.store import schema
from parawire.store.base import StoreBase


class OverviewQueries(StoreBase):
    """Counts for `parawire status` and the dashboard."""

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
