"""Review labels: an operator's right/wrong verdicts on the pairs of a run."""

from __future__ import annotations

import random

import sqlalchemy as sa

from parawire.records import ReviewLabel
from parawire.store import schema
from parawire.store.base import StoreBase, now

SAMPLE_DRAWS = 3  # random seeks per pair asked for, before shuffling what is left


class ReviewQueries(StoreBase):
    """Samples to review and the labels given."""

    def sample_unlabeled_pairs(self, run_id: int, size: int) -> list[int]:
        """Ids of up to `size` pairs of a run, drawn at random among those not labeled yet.

        Each draw picks a random id in the run's id range and takes the first unlabeled pair
        from there (an index seek, whatever the run's size); only when draws keep missing
        (most pairs labeled) are the rest drawn by shuffling the unlabeled ones.
        """
        pairs, labels = schema.pairs, schema.review_labels
        unlabeled = (sa.select(pairs.c.id).outerjoin(labels, labels.c.pair_id == pairs.c.id)
                     .where(pairs.c.run_id == run_id, labels.c.id.is_(None)))
        rng = random.SystemRandom()
        found: list[int] = []
        with self.engine.connect() as conn:
            # Each bound alone, so that both databases read it off the (run_id, id) index.
            low, high = conn.execute(sa.select(*(
                sa.select(bound(pairs.c.id)).where(pairs.c.run_id == run_id).scalar_subquery()
                for bound in (sa.func.min, sa.func.max)))).one()
            for _ in range(SAMPLE_DRAWS * size if low is not None else 0):
                if len(found) == size:
                    break
                pair_id = conn.execute(unlabeled.where(pairs.c.id >= rng.randint(low, high))
                                       .order_by(pairs.c.id).limit(1)).scalar()
                if pair_id is not None and pair_id not in found:
                    found.append(pair_id)
            if len(found) < size:
                rest = unlabeled.where(pairs.c.id.not_in(found)).order_by(sa.func.random())
                found += conn.execute(rest.limit(size - len(found))).scalars()
        return found

    def label_pair(self, run_id: int, pair_id: int, correct: bool, reviewer: str = "") -> bool:
        """Record (or change) the verdict on a pair and who gave it; False when the run has
        no such pair."""
        pairs, labels = schema.pairs, schema.review_labels
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(pairs.c.id).where(pairs.c.id == pair_id, pairs.c.run_id == run_id)
            ).first()
            if found is None:
                return False
            changed = conn.execute(
                labels.update().where(labels.c.pair_id == pair_id)
                .values(correct=correct, labeled_at=now(), reviewer=reviewer)
            ).rowcount
            if not changed:
                conn.execute(labels.insert().values(run_id=run_id, pair_id=pair_id,
                                                    correct=correct, labeled_at=now(),
                                                    reviewer=reviewer))
        return True

    def review_labels(self, run_id: int) -> list[ReviewLabel]:
        """A run's labels, in the order they were first given."""
        labels = schema.review_labels
        query = sa.select(labels).where(labels.c.run_id == run_id).order_by(labels.c.id)
        with self.engine.connect() as conn:
            return [ReviewLabel(pair_id=row.pair_id, correct=row.correct,
                                labeled_at=row.labeled_at, reviewer=row.reviewer)
                    for row in conn.execute(query)]

    def labelled_pair_signals(self, run_id: int | None = None) -> list[tuple[dict[str, float], bool]]:
        """The scorer signals of reviewed pairs (of one run, or of every run) with their
        labels, for retraining the pair scorer; pairs stored without signals are left out."""
        pairs, labels = schema.pairs, schema.review_labels
        query = (sa.select(pairs.c.features, labels.c.correct)
                 .join(pairs, pairs.c.id == labels.c.pair_id).order_by(labels.c.id))
        if run_id is not None:
            query = query.where(labels.c.run_id == run_id)
        with self.engine.connect() as conn:
            return [(row.features, row.correct) for row in conn.execute(query) if row.features]
