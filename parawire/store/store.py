"""The Store: one object over the store's tables, its queries grouped by concern."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.exc import OperationalError

from parawire.errors import ParawireError
from parawire.store.alignment import AlignmentQueries
from parawire.store.articles import ArticleQueries
from parawire.store.overview import OverviewQueries
from parawire.store.pair_search import PairSearchQueries
from parawire.store.review import ReviewQueries

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


def open_store(url: str, pool_size: int | None = None) -> Store:
    """Connect to the store at `url` and bring its schema up to date; `pool_size`
    connections kept open (default: SQLAlchemy's) for a server's concurrent requests."""
    store = Store(url, pool_size)
    store.migrate()
    return store


class Store(ArticleQueries, AlignmentQueries, ReviewQueries, OverviewQueries, PairSearchQueries):
    """Typed access to the store, the same on SQLite and PostgreSQL; one instance per process."""

    def __init__(self, url: str, pool_size: int | None = None) -> None:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        try:
            pool = {} if pool_size is None else {"pool_size": pool_size,
                                                 "max_overflow": pool_size}
            self.engine = sa.create_engine(url, future=True, pool_pre_ping=True, **pool)
        except (sa.exc.ArgumentError, ImportError) as exc:
            raise ParawireError(f"bad store.url {url!r}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.url = url

    def migrate(self) -> None:
        """Apply every Alembic migration not yet applied (idempotent)."""
        config = AlembicConfig(str(ALEMBIC_INI))
        try:
            with self.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except OperationalError as exc:
            reason = str(exc.orig).strip().splitlines()[0]
            raise ParawireError(f"cannot reach the store at {self._safe_url()}: {reason}") from None

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
