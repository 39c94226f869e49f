"""Alignment runs, the references they have searched, and the pairs they found."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection

from parawire.errors import ParawireError
from parawire.records import AlignmentRun, Pair, PairRow
from parawire.store import schema
from parawire.store.base import now
from parawire.store.rows import pair_record, pair_values
from parawire.store.sentences import SentenceQueries


class BatchOverlap(ParawireError):
    """A batch's references were partly recorded by another batch of the run meanwhile."""

    def __init__(self, run_id: int, references: list[int]) -> None:
        super().__init__(f"alignment run {run_id}: a batch from reference {references[0]} "
                         "overlaps one already stored")


def _rank(pair: Pair) -> tuple[float, float]:
    return pair.score, pair.raw_score


class AlignmentQueries(SentenceQueries):
    """Alignment runs, their done references and their pairs (with their sentences)."""

    def find_or_start_alignment_run(self, run_key: str, parameters: dict[str, Any]) -> AlignmentRun:
        """The latest run with these parameters, or a new one; it is (re)opened as running.

        The key is locked while looking, so two clients starting the same run at once share
        one run."""
        table = schema.alignment_runs

        def find_or_start(conn: Connection) -> int:
            self._lock(conn, f"alignment-run:{run_key}")
            row = conn.execute(
                sa.select(table.c.id).where(table.c.run_key == run_key).order_by(table.c.id.desc())
            ).first()
            if row is None:
                return conn.execute(table.insert().values(
                    run_key=run_key, parameters=parameters, started_at=now(), status="running",
                    counts={})).inserted_primary_key[0]
            conn.execute(table.update().where(table.c.id == row.id)
                         .values(status="running", reason=None, finished_at=None))
            return row.id

        run = self.alignment_run(self._transaction(find_or_start))
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
                .values(status="finished", finished_at=now(), counts=counts, reason=None)
            )

    def stop_alignment_run(self, run_id: int, status: str, reason: str) -> None:
        """End a running alignment run as "interrupted" or "failed", with the reason."""
        self._stop_run(schema.alignment_runs, run_id, status, reason)

    def done_references(self, run_id: int, among: Iterable[int] | None = None) -> set[int]:
        """Reference sentences whose search is already recorded for this run (of `among`)."""
        table = schema.alignment_references
        query = sa.select(table.c.sentence_id).where(table.c.run_id == run_id)
        if among is not None:
            query = query.where(table.c.sentence_id.in_(sorted(set(among))))
        with self.engine.connect() as conn:
            return {row.sentence_id for row in conn.execute(query)}

    def count_done_references(self, run_id: int) -> int:
        """How many references of this run have their search recorded."""
        return self._count(schema.alignment_references.c.run_id == run_id)

    def stored_batch_counts(self, run_id: int) -> Counter[str]:
        """The sum of the counts stored with each of a run's batches (every pass's)."""
        table = schema.alignment_batches
        totals: Counter[str] = Counter()
        with self.engine.connect() as conn:
            for row in conn.execute(sa.select(table.c.counts).where(table.c.run_id == run_id)):
                totals.update(row.counts)
        return totals

    def record_references(self, run_id: int, reference_ids: list[int], pairs: list[Pair],
                          counts: dict[str, int] | None = None) -> None:
        """Store a batch's pairs and counts and mark its references done, in one transaction.

        Rows go in sorted by key (so concurrent batches take their locks in one order), and
        a pair found twice keeps its higher score, whichever batch stored it first. A batch
        with a reference another batch has recorded meanwhile raises BatchOverlap and stores
        nothing."""
        best: dict[tuple[int, int], Pair] = {}
        for pair in pairs:
            key = (pair.input_sentence_id, pair.target_sentence_id)
            if key not in best or _rank(pair) > _rank(best[key]):
                best[key] = pair
        references = sorted(set(reference_ids))

        def record(conn: Connection) -> None:
            if references:
                refs = schema.alignment_references
                inserted = conn.execute(
                    self._insert_ignoring_conflicts(refs).returning(refs.c.sentence_id),
                    [{"run_id": run_id, "sentence_id": ref} for ref in references],
                ).all()
                if len(inserted) != len(references):
                    raise BatchOverlap(run_id, references)
                conn.execute(self._insert(schema.alignment_batches).values(
                    run_id=run_id, first_reference_id=references[0], counts=counts or {}))
            if best:
                conn.execute(self._upsert_best_pair(),
                             [pair_values(best[key]) for key in sorted(best)])

        self._transaction(record)

    def _upsert_best_pair(self) -> Any:
        """An INSERT of pairs that, on a pair already stored, keeps the higher-ranked one."""
        table = schema.pairs
        insert = self._insert(table)
        new, old = insert.excluded, table.c
        higher = sa.or_(new.score > old.score,
                        sa.and_(new.score == old.score, new.raw_score > old.raw_score))
        return insert.on_conflict_do_update(
            index_elements=[old.run_id, old.input_sentence_id, old.target_sentence_id],
            set_={column: new[column] for column in (
                "score", "raw_score", "shared_pn", "shared_cn", "probability", "features",
                "story_id", "source", "grade", "direction", "grade_probabilities")},
            where=higher)

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
