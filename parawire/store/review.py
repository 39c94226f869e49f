"""Review labels: an operator's right/wrong verdicts on the pairs of a run."""

from __future__ import annotations

import sqlalchemy as sa

from parawire.records import ReviewLabel
from parawire.store import schema
from parawire.store.base import StoreBase, now


class ReviewQueries(StoreBase):
    """Samples to review and the labels given."""

    def sample_unlabeled_pairs(self, run_id: int, size: int) -> list[int]:
        """Ids of up to `size` pairs of a run, drawn at random among those not labeled yet."""
        pairs, labels = schema.pairs, schema.review_labels
        query = (
            sa.select(pairs.c.id)
            .outerjoin(labels, labels.c.pair_id == pairs.c.id)
            .where(pairs.c.run_id == run_id, labels.c.id.is_(None))
            .order_by(sa.func.random()).limit(size)
        )
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

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
