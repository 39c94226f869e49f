"""What every group of the store's queries shares: the engine and a few query helpers."""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from parawire.records import Run
from parawire.store.rows import run_record

T = TypeVar("T")
RunT = TypeVar("RunT", bound=Run)
# PostgreSQL's deadlock_detected and serialization_failure: the transaction can be retried.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
TRANSACTION_ATTEMPTS = 6


def now() -> datetime:
    """The current UTC time without tzinfo (stored as naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class StoreBase:
    """The engine the query groups run on (set by Store) and helpers they share."""

    engine: Engine
    _local: threading.local

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Make the writes inside (in this thread) one transaction: committed together at
        the end, none of them on an error. Nested, it joins the open one."""
        local = self._thread_state()
        if getattr(local, "connection", None) is not None:
            yield
            return
        with self.engine.begin() as conn:
            local.connection = conn
            try:
                yield
            finally:
                local.connection = None

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """The open transaction's connection, or a transaction of its own."""
        open_connection = getattr(self._thread_state(), "connection", None)
        if open_connection is not None:
            yield open_connection
            return
        with self.engine.begin() as conn:
            yield conn

    def _thread_state(self) -> threading.local:
        if not hasattr(self, "_local"):
            self._local = threading.local()
        return self._local

    def _add_to(self, conn: Any, table: sa.Table, column: str, rows: list[dict[str, Any]]) -> None:
        """Insert the rows, or add their `column` count to the rows with the same key."""
        if not rows:
            return
        insert = self._insert(table)
        conn.execute(insert.on_conflict_do_update(
            index_elements=[key.name for key in table.primary_key],
            set_={column: table.c[column] + insert.excluded[column]}), rows)

    def _insert(self, table: sa.Table) -> Any:
        """An INSERT that can say what to do on a conflict (the dialect's own insert)."""
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    def _insert_ignoring_conflicts(self, table: sa.Table) -> Any:
        return self._insert(table).on_conflict_do_nothing()

    def _batches(self, table: sa.Table, conditions: list[Any], convert: Callable[[Any], T],
                 after_id: int, batch_size: int,
                 columns: list[Any] | None = None) -> Iterator[list[T]]:
        """Rows matching `conditions` with id > after_id (all columns, or those given with
        the id first), converted, in id-ordered batches."""
        last_id = after_id
        while True:
            query = (sa.select(*(columns or [table])).where(*conditions, table.c.id > last_id)
                     .order_by(table.c.id).limit(batch_size))
            with self.engine.connect() as conn:
                rows = list(conn.execute(query))
            if not rows:
                return
            last_id = rows[-1].id
            yield [convert(row) for row in rows]

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        """Run `work` in one transaction, retried (a bounded number of times, after a short
        random pause) when PostgreSQL chose it as a deadlock or serialization victim."""
        open_connection = getattr(self._thread_state(), "connection", None)
        if open_connection is not None:  # inside transaction(): join it (retried as a whole)
            return work(open_connection)
        for attempt in range(1, TRANSACTION_ATTEMPTS + 1):
            try:
                with self.engine.begin() as conn:
                    return work(conn)
            except sa.exc.DBAPIError as exc:
                code = getattr(exc.orig, "sqlstate", None)
                if code not in RETRYABLE_SQLSTATES or attempt == TRANSACTION_ATTEMPTS:
                    raise
                time.sleep(random.uniform(0.01, 0.05) * 2 ** attempt)
        raise AssertionError("unreachable")

    def _lock(self, conn: Connection, key: str) -> None:
        """Serialise the rest of this transaction with every other one taking the same key:
        an advisory lock on PostgreSQL, SQLite's write lock (taken by a write that changes
        nothing) elsewhere."""
        if self.engine.dialect.name == "postgresql":
            number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(number)))
        else:
            conn.execute(sa.text("UPDATE alignment_runs SET status = status WHERE 0"))

    def _stop_run(self, table: sa.Table, run_id: int, status: str, reason: str) -> None:
        """End a run that is still running as interrupted or failed, with the reason."""
        with self.engine.begin() as conn:
            conn.execute(table.update().where(table.c.id == run_id, table.c.status == "running")
                         .values(status=status, reason=reason, finished_at=now()))

    def _run_by_id(self, table: sa.Table, cls: type[RunT], run_id: int) -> RunT | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table).where(table.c.id == run_id)).first()
        return None if row is None else run_record(cls, row)

    def _latest_runs(self, table: sa.Table, cls: type[RunT], limit: int) -> list[RunT]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table).order_by(table.c.id.desc()).limit(limit))
            return [run_record(cls, row) for row in rows]

    def _count(self, *conditions: Any, table: sa.Table | None = None) -> int:
        """How many rows match (of `table`, or of the table the conditions name)."""
        query = sa.select(sa.func.count())
        if table is not None:
            query = query.select_from(table)
        with self.engine.connect() as conn:
            return conn.execute(query.where(*conditions)).scalar_one()
