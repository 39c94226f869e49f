"""The Store: one object over the store's tables, its queries grouped by concern."""

from __future__ import annotations

import select
import threading
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.exc import DatabaseError, OperationalError

from parawire.errors import ParawireError
from parawire.store.alignment import AlignmentQueries
from parawire.store.articles import ArticleQueries
from parawire.store.outlets import OutletQueries
from parawire.store.overview import OverviewQueries
from parawire.store.pair_search import PairSearchQueries
from parawire.store.review import ReviewQueries
from parawire.store.stories import StoryQueries

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")
_MIGRATING = threading.Lock()


def open_store(url: str, pool_size: int | None = None) -> Store:
    """Connect to the store at `url` (`pool_size` connections kept open, default:
    SQLAlchemy's, for a server's concurrent requests), check that a SQLite file is not
    damaged (a quick check), and bring its schema up to date."""
    store = Store(url, pool_size)
    if store.engine.dialect.name == "sqlite":
        store.check(quick=True)
    store.migrate()
    return store


class Store(ArticleQueries, AlignmentQueries, ReviewQueries, OverviewQueries, PairSearchQueries,
            OutletQueries, StoryQueries):
    """Typed access to the store, the same on SQLite and PostgreSQL; one instance per process."""

    def __init__(self, url: str, pool_size: int | None = None) -> None:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        try:
            pool = {} if pool_size is None else {"pool_size": pool_size,
                                                 "max_overflow": pool_size}
            backend = sa.engine.make_url(url).get_backend_name()
            self.engine = sa.create_engine(url, future=True, **pool, pool_pre_ping=backend
                                           not in ("sqlite", "postgresql"))
        except (sa.exc.ArgumentError, ImportError) as exc:
            raise ParawireError(f"bad store.url {url!r}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        if self.engine.dialect.name == "postgresql":
            sa.event.listen(self.engine, "checkout", _closed_by_the_server)
        self.url = url

    def migrate(self) -> None:
        """Apply every Alembic migration not yet applied (idempotent)."""
        config = AlembicConfig(str(ALEMBIC_INI))
        try:
            # Alembic's commands keep module-level state: one migration at a time per process.
            with _MIGRATING, self.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except OperationalError as exc:
            reason = str(exc.orig).strip().splitlines()[0]
            raise ParawireError(f"cannot reach the store at {self._safe_url()}: {reason}") from None
        except DatabaseError as exc:
            raise self._damaged(str(exc.orig).strip().splitlines()[0]) from None

    def check(self, quick: bool = False) -> list[str]:
        """Check the store's integrity: SQLite's integrity_check (quick_check when `quick`),
        which reads every page; on PostgreSQL (which checks its own pages as it reads them)
        every table is read through. Returns what was checked; damage raises one line."""
        if self.engine.dialect.name != "sqlite":
            with self.engine.connect() as conn:
                tables = [name for name in sa.inspect(conn).get_table_names()]
                for name in tables:
                    conn.execute(sa.text(f'SELECT count(*) FROM "{name}"')).scalar_one()
            return [f"{len(tables)} tables read through"]
        pragma = "quick_check" if quick else "integrity_check"
        try:
            with self.engine.connect() as conn:
                found = [row[0] for row in conn.exec_driver_sql(f"PRAGMA {pragma}")]
        except OperationalError as exc:
            reason = str(exc.orig).strip().splitlines()[0]
            raise ParawireError(f"cannot reach the store at {self._safe_url()}: {reason}") from None
        except DatabaseError as exc:
            raise self._damaged(str(exc.orig).strip().splitlines()[0]) from None
        if found != ["ok"]:
            # A row may hold several lines, under a "*** in database main ***" heading.
            problems = [line.strip() for row in found for line in row.splitlines()
                        if line.strip() and not line.startswith("*** in database")] or found
            raise self._damaged(f"{pragma}: {problems[0]}" + (
                f" (and {len(problems) - 1} more problems)" if problems[1:] else ""))
        return [f"{pragma}: ok"]

    def _damaged(self, reason: str) -> ParawireError:
        return ParawireError(
            f"the store {self._safe_url()} is damaged ({reason}): restore it from a backup, "
            "or move the file aside to start a new store")

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)


def _closed_by_the_server(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Replace a pooled PostgreSQL connection the server closed while it sat idle (a
    restart, an idle timeout, pg_terminate_backend): its socket has something to read, the
    server's goodbye or the end of the stream, or it is known broken. The pool takes a new
    connection on DisconnectionError. A poll of the socket, where pool_pre_ping sent a
    round trip at every checkout (0.1 ms of Python each, three a story page)."""
    if dbapi_connection.closed or getattr(dbapi_connection, "broken", False):
        raise sa.exc.DisconnectionError("connection closed")
    if select.select([dbapi_connection.fileno()], [], [], 0)[0]:
        raise sa.exc.DisconnectionError("the server closed the connection")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
