"""Per-outlet statistics of the crawler: read when a crawl meets an outlet, added to as its
pages arrive."""

from __future__ import annotations

import sqlalchemy as sa

from parawire.records import OutletStats
from parawire.store import schema
from parawire.store.base import StoreBase


class OutletQueries(StoreBase):
    """The outlets' page, line and title-affix counts."""

    def outlet_stats(self, outlet: str) -> OutletStats:
        """What the crawls so far have seen of an outlet (nothing yet: zero counts)."""
        with self.engine.connect() as conn:
            pages = conn.execute(sa.select(schema.outlet_pages.c.pages).where(
                schema.outlet_pages.c.outlet == outlet)).scalar()
            stats = OutletStats(pages=int(pages or 0))
            for table, key, counts in ((schema.outlet_lines, "line_key", stats.lines),
                                       (schema.outlet_affixes, "affix", stats.affixes)):
                counts.update({row[0]: int(row[1]) for row in conn.execute(
                    sa.select(table.c[key], table.c.pages).where(table.c.outlet == outlet))})
        return stats

    def add_outlet_stats(self, added: dict[str, OutletStats]) -> None:
        """Add the counts of newly seen pages to each outlet's, in one transaction (inside
        `transaction()`, in that one)."""
        with self._begin() as conn:
            # Rows in key order, so that concurrent crawls lock them in the same order.
            for outlet, stats in sorted(added.items()):
                self._add_to(conn, schema.outlet_pages, "pages",
                             [{"outlet": outlet, "pages": stats.pages}])
                self._add_to(conn, schema.outlet_lines, "pages", [
                    {"outlet": outlet, "line_key": key, "pages": n}
                    for key, n in sorted(stats.lines.items())])
                self._add_to(conn, schema.outlet_affixes, "pages", [
                    {"outlet": outlet, "affix": affix, "pages": n}
                    for affix, n in sorted(stats.affixes.items())])
