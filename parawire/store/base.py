"""What every group of the store's queries shares: the engine and a few query helpers."""

from __future__ import annotations

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


def now() -> datetime:
    """The current UTC time without tzinfo (stored as naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class StoreBase:
    """The engine the query groups run on (set by Store) and helpers they share."""

    engine: Engine
    # The connection of the transaction() block in progress, if any.
    _pinned: Connection | None = None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Make the writes of the store calls inside the block one transaction (committed at
        its end, rolled back if it raises); for calls that take part (add_article)."""
        with self.engine.begin() as conn:
            self._pinned = conn
            try:
                yield
            finally:
                self._pinned = None

    @contextmanager
    def _begin(self) -> Iterator[Connection]:
        """The transaction() block's connection, or a new transaction of its own."""
        if self._pinned is not None:
            yield self._pinned
        else:
            with self.engine.begin() as conn:
                yield conn

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
