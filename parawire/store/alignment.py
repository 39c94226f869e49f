"""Alignment runs, the references they have searched, and the pairs they found."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from parawire.records import AlignmentRun, Pair, PairRow
from parawire.store import schema
from parawire.store.base import now
from parawire.store.rows import pair_record, pair_values
from parawire.store.sentences import SentenceQueries


class AlignmentQueries(SentenceQueries):
    """Alignment runs, their done references and their pairs (with their sentences)."""

    def find_or_start_alignment_run(self, run_key: str, parameters: dict[str, Any]) -> AlignmentRun:
        """The latest run with these parameters, or a new one; it is (re)opened as running."""
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(table).where(table.c.run_key == run_key).order_by(table.c.id.desc())
            ).first()
            if row is None:
                run_id = conn.execute(
                    table.insert().values(
                        run_key=run_key, parameters=parameters, started_at=now(),
                        status="running", counts={},
                    )
                ).inserted_primary_key[0]
            else:
                run_id = row.id
                conn.execute(table.update().where(table.c.id == run_id).values(status="running"))
        run = self.alignment_run(run_id)
        assert run is not None
        return run

    def alignment_run(self, run_id: int) -> AlignmentRun | None:
        """One alignment run by id."""
        return self._run_by_id(schema.alignment_runs, AlignmentRun, run_id)

    def alignment_runs(self, limit: int = 20) -> list[AlignmentRun]:
        """The latest alignment runs, newest first."""
        return self._latest_runs(schema.alignment_runs, AlignmentRun, limit)

    def record_references_selected(self, run_id: int, selected: int) -> None:
        """Note how many references a running alignment run has in all, for its progress.

        One UPDATE sets that key inside the stored counts, so no concurrent writer's counts
        are lost between a read and a write."""
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            conn.execute(table.update().where(table.c.id == run_id).values(
                counts=self._json_with(table.c.counts, "references_selected", selected)))

    def _json_with(self, column: Any, key: str, value: int) -> Any:
        """The JSON object in `column` with `key` set to `value`, as an SQL expression."""
        if self.engine.dialect.name == "postgresql":
            merged = sa.cast(column, postgresql.JSONB).op("||")(sa.func.jsonb_build_object(
                sa.cast(sa.literal(key), sa.Text), sa.cast(sa.literal(value), sa.Integer)))
            return sa.cast(merged, sa.JSON)
        return sa.func.json_set(column, f"$.{key}", value)

    def finish_alignment_run(self, run_id: int, counts: dict[str, int]) -> None:
        """Close an alignment run with its counts."""
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            conn.execute(
                table.update().where(table.c.id == run_id)
                .values(status="finished", finished_at=now(), counts=counts)
            )

    def done_references(self, run_id: int) -> set[int]:
        """Reference sentences whose search is already recorded for this run."""
        table = schema.alignment_references
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table.c.sentence_id).where(table.c.run_id == run_id))
            return {row.sentence_id for row in rows}

    def count_done_references(self, run_id: int) -> int:
        """How many references of this run have their search recorded."""
        return self._count(schema.alignment_references.c.run_id == run_id)

    def record_references(self, run_id: int, reference_ids: list[int], pairs: list[Pair]) -> None:
        """Store a batch's pairs and mark its references done, in one transaction."""
        with self.engine.begin() as conn:
            if pairs:
                conn.execute(self._insert_ignoring_conflicts(schema.pairs),
                             [pair_values(p) for p in pairs])
            if reference_ids:
                conn.execute(
                    self._insert_ignoring_conflicts(schema.alignment_references),
                    [{"run_id": run_id, "sentence_id": ref} for ref in reference_ids],
                )

    def pairs(self, run_id: int) -> list[Pair]:
        """Every pair a run has stored, in insertion order."""
        table = schema.pairs
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table).where(table.c.run_id == run_id).order_by(table.c.id))
            return [pair_record(row) for row in rows]

    def count_pairs(self, run_id: int) -> int:
        """How many pairs a run has stored."""
        return self._count(schema.pairs.c.run_id == run_id)

    def pair_rows(self, run_id: int) -> Iterator[PairRow]:
        """A run's pairs with both sentences, in insertion order, read 1,000 at a time."""
        table = schema.pairs
        for chunk in self._batches(table, [table.c.run_id == run_id], pair_record, 0, 1000):
            sentences = self.sentences_by_id(
                [i for p in chunk for i in (p.input_sentence_id, p.target_sentence_id)]
            )
            for pair in chunk:
                yield PairRow(pair, sentences[pair.input_sentence_id],
                              sentences[pair.target_sentence_id])
