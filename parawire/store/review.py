"""Review labels: an operator's right/wrong verdicts on the pairs of a run."""

from __future__ import annotations

import functools
import math
import random
from typing import Any

import sqlalchemy as sa

from parawire.records import Direction, ReviewedPair, ReviewLabel
from parawire.store import schema
from parawire.store.base import StoreBase, now

# Random seeks per pair still missing, round by round (one SELECT a round), before drawing
# from every unlabeled id: a first round a little over the sample, then a wide one.
DRAW_ROUNDS = (1.25, 3.0)
DRAWS_PER_QUERY = 150  # seeks per SELECT (a UNION ALL of 150 offsets: under SQLite's 500 terms)
OFFSET_RANGE = 2**31  # a seek starts at the run's lowest id + (offset mod the id range)


def _unlabeled(run_id: Any, start: Any = None) -> sa.Select:
    """The ids of the run's pairs without a label (from `start` on): an anti-join on
    review_labels.pair_id. The IS NULL test is on the join's own column, so PostgreSQL
    plans it as an anti-join; on `review_labels.id` it kept a left join, estimated one row
    left after it, and sorted every pair from the seek's start on instead of stopping at
    the first. From `start` on, only labels from `start` on are joined: PostgreSQL merges
    the two by id, and read every label below the start at each seek (279 of 500 a seek,
    1.0 ms for a sample of 26 seeks at 100k pairs; 0.6 ms now)."""
    pairs, labels = schema.pairs, schema.review_labels
    joined = labels.c.pair_id == pairs.c.id
    if start is not None:
        joined = sa.and_(joined, labels.c.pair_id >= start)
    query = (sa.select(pairs.c.id).select_from(pairs.outerjoin(labels, joined))
             .where(pairs.c.run_id == run_id, labels.c.pair_id.is_(None)))
    return query if start is None else query.where(pairs.c.id >= start)


@functools.cache
def _label_counts_by_grade() -> sa.Select:
    """(grade, correct, count) over run :run_id's labels, each label's pair read by its key
    (a correlated subquery: as a join, PostgreSQL hashed every pair of the store, 100k pairs
    read for 500 labels). Built once."""
    pairs, labels = schema.pairs, schema.review_labels
    grade = sa.select(pairs.c.grade).where(pairs.c.id == labels.c.pair_id).scalar_subquery()
    labelled = (sa.select(grade.label("grade"), labels.c.correct)
                .where(labels.c.run_id == sa.bindparam("run_id", type_=sa.Integer)).subquery())
    return (sa.select(labelled.c.grade, labelled.c.correct, sa.func.count())
            .group_by(labelled.c.grade, labelled.c.correct))


@functools.lru_cache(maxsize=16)
def _draws(count: int) -> sa.Select:
    """One SELECT of `count` seeks: row k is the first unlabeled pair of run :run_id from
    the run's lowest id + (:offset_k mod the run's id range) on; no row's seek finds
    anything when the run has no pair. The run's id range (each bound alone, read off the
    (run_id, id) index) and the offsets (bound values) are tables the seek, one subquery, is
    correlated with: PostgreSQL plans one seek, not `count` (planning 30 seeks, each a
    subquery of its own, cost it 5 ms a sample of 10), and the range costs no round trip
    of its own. Built once per count."""
    pairs = schema.pairs
    run_id = sa.bindparam("run_id", type_=sa.Integer)
    bounds = sa.select(*(
        sa.select(bound(pairs.c.id)).where(pairs.c.run_id == run_id).scalar_subquery()
        .label(name) for name, bound in (("low", sa.func.min), ("high", sa.func.max)))
    ).cte("bounds")
    offsets = sa.union_all(*(
        sa.select(sa.bindparam(f"offset_{k}", type_=sa.Integer).label("offset"))
        for k in range(count))).cte("offsets")
    start = bounds.c.low + offsets.c.offset % (bounds.c.high - bounds.c.low + 1)
    seek = (_unlabeled(run_id, start).order_by(pairs.c.id)
            .limit(sa.literal_column("1")).scalar_subquery().correlate(offsets, bounds))
    return sa.select(seek).select_from(offsets.join(bounds, sa.true()))


class ReviewQueries(StoreBase):
    """Samples to review and the labels given."""

    def sample_unlabeled_pairs(self, run_id: int, size: int) -> list[int]:
        """Ids of up to `size` pairs of a run, drawn at random among those not labeled yet.

        Each draw picks a random id in the run's id range and takes the first unlabeled pair
        from there (an index seek on (run_id, id), whatever the run's size). The draws go
        together, DRAWS_PER_QUERY to a SELECT with the id range: a sample of up to 100
        pairs of a run mostly unlabeled is one query, and a second round (DRAW_ROUNDS) takes
        what repeated draws and labeled stretches left missing. Only when draws keep
        missing (most pairs labeled) does a last query read the ids of every unlabeled pair
        of the run to draw the rest from; no query sorts the run's pairs at random.
        """
        rng = random.SystemRandom()
        found: list[int] = []
        with self.engine.connect() as conn:
            for per_missing in DRAW_ROUNDS:
                missing = size - len(found)
                if missing <= 0:
                    break
                offsets = [rng.randrange(OFFSET_RANGE)
                           for _ in range(math.ceil(per_missing * missing) + 1)]
                for first in range(0, len(offsets), DRAWS_PER_QUERY):
                    chunk = offsets[first:first + DRAWS_PER_QUERY]
                    found += conn.execute(_draws(len(chunk)), {
                        "run_id": run_id, **{f"offset_{k}": o for k, o in enumerate(chunk)}
                    }).scalars()
                found = list(dict.fromkeys(p for p in found if p is not None))[:size]
            if len(found) < size:
                rest = set(conn.execute(_unlabeled(run_id)).scalars()) - set(found)
                found += rng.sample(sorted(rest), min(size - len(found), len(rest)))
        return found

    def label_pair(self, run_id: int, pair_id: int, correct: bool, reviewer: str = "",
                   grade: int | None = None, direction: Direction | None = None) -> bool:
        """Record (or change) the verdict on a pair, who gave it and, where the reader
        graded the pair, its grade and direction; False when the run has no such pair."""
        pairs, labels = schema.pairs, schema.review_labels
        values = {"correct": correct, "labeled_at": now(), "reviewer": reviewer, "grade": grade,
                  "direction": direction.value if direction is not None else None}
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(pairs.c.id).where(pairs.c.id == pair_id, pairs.c.run_id == run_id)
            ).first()
            if found is None:
                return False
            changed = conn.execute(
                labels.update().where(labels.c.pair_id == pair_id).values(**values)).rowcount
            if not changed:
                conn.execute(labels.insert().values(run_id=run_id, pair_id=pair_id, **values))
        return True

    def label_counts_by_grade(self, run_id: int) -> dict[int | None, tuple[int, int]]:
        """Right and wrong labels per grade the pair model gave the labelled pairs (None:
        pairs stored without a grade)."""
        counts: dict[int | None, list[int]] = {}
        with self.engine.connect() as conn:
            for grade, correct, count in conn.execute(_label_counts_by_grade(),
                                                      {"run_id": run_id}):
                counts.setdefault(grade, [0, 0])[0 if correct else 1] += count
        return {grade: (right, wrong) for grade, (right, wrong) in counts.items()}

    def review_labels(self, run_id: int) -> list[ReviewLabel]:
        """A run's labels, in the order they were first given."""
        labels = schema.review_labels
        query = (sa.select(labels.c.pair_id, labels.c.correct, labels.c.labeled_at,
                           labels.c.reviewer, labels.c.grade, labels.c.direction)
                 .where(labels.c.run_id == run_id).order_by(labels.c.id))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [ReviewLabel(pair_id, correct, labeled_at, reviewer, grade,
                            Direction(direction) if direction else None)
                for pair_id, correct, labeled_at, reviewer, grade, direction in rows]

    def labelled_pair_signals(self, run_id: int | None = None) -> list[ReviewedPair]:
        """The pair-model features of reviewed pairs (of one run, or of every run) with
        their labels, for retraining the pair model; pairs stored without features are left
        out."""
        pairs, labels = schema.pairs, schema.review_labels
        query = (sa.select(pairs.c.features, labels.c.correct, labels.c.grade,
                           labels.c.direction)
                 .join(pairs, pairs.c.id == labels.c.pair_id).order_by(labels.c.id))
        if run_id is not None:
            query = query.where(labels.c.run_id == run_id)
        with self.engine.connect() as conn:
            return [ReviewedPair(row.features, row.correct, row.grade,
                                 Direction(row.direction) if row.direction else None)
                    for row in conn.execute(query) if row.features]
