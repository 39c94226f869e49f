"""The review of a run: random unlabeled samples, labels, precision and the label export."""

from __future__ import annotations

import csv
import io
from typing import Any

from parawire.dashboard.precision import Precision, precision_of
from parawire.records import PairListing, ReviewLabel
from parawire.store import Store

MAX_SAMPLE = 50


def sample(store: Store, run_id: int, size: int) -> list[PairListing]:
    """Up to `size` pairs of the run that nobody has labeled, drawn at random."""
    return store.pairs_by_id(store.sample_unlabeled_pairs(run_id, size))


def run_precision(store: Store, run_id: int) -> tuple[Precision, list[tuple[int | None, Precision]]]:
    """The run's precision, and the precision of the pairs the pair model gave each grade
    (highest grade first, pairs stored without a grade last), from one count of its labels
    by grade and verdict."""
    counts = store.label_counts_by_grade(run_id)
    overall = precision_of(sum(right for right, _ in counts.values()),
                           sum(wrong for _, wrong in counts.values()))
    return overall, [(grade, precision_of(*counts[grade]))
                     for grade in sorted(counts, key=lambda g: -1 if g is None else g,
                                         reverse=True)]


def latest_run_review(store: Store, overview: dict[str, Any]) -> dict[str, Any]:
    """The overview's live part: the precision per grade of the latest run's labels."""
    run_id = overview["run"]
    return {"review_by_grade": run_precision(store, run_id)[1] if run_id is not None else []}


def _cell(text: str) -> str:
    """Crawled text as a CSV cell that no spreadsheet reads as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _optional(value: float | None) -> float | str:
    """A number, or an empty cell for none."""
    return "" if value is None else value


def labels_csv(labels: list[ReviewLabel], views: list[PairListing]) -> str:
    """The labels with both sentences, as CSV (one row per labeled pair)."""
    by_id = {view.id: view for view in views}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["pair_id", "correct", "grade", "direction", "labeled_at", "reviewer",
                     "score", "probability", "input", "target"])
    for label in labels:
        view = by_id.get(label.pair_id)
        writer.writerow([label.pair_id, int(label.correct), _optional(label.grade),
                         label.direction or "", label.labeled_at.isoformat(),
                         _cell(label.reviewer), view.score if view else "",
                         _optional(view.probability) if view else "",
                         _cell(view.input.text) if view else "",
                         _cell(view.target.text) if view else ""])
    return out.getvalue()
