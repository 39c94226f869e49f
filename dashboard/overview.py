"""Volume per day, outlet, topic and language for articles, sentences, references, pairs."""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from parawire.store import Store

DIMENSIONS = ("day", "outlet", "topic", "language")
METRICS = ("articles", "sentences", "references", "pairs")
UNKNOWN = "unknown"
Breakdown = dict[str, dict[str, dict[str, int]]]  # dimension -> metric -> key -> count


def compute_overview(store: Store) -> dict[str, Any]:
    """Totals and the per-dimension breakdowns (pairs and references by their input sentence)."""
    breakdown: Breakdown = {d: {m: defaultdict(int) for m in METRICS} for d in DIMENSIONS}
    totals = dict.fromkeys(METRICS, 0)
    for metric, volumes in store.volume_counts().items():
        for published, source, topic, language, count in volumes:
            keys = (published.isoformat() if published else UNKNOWN, source or UNKNOWN,
                    topic or UNKNOWN, language or UNKNOWN)
            for dimension, key in zip(DIMENSIONS, keys, strict=True):
                breakdown[dimension][metric][key] += count
            totals[metric] += count
    return {
        "totals": totals,
        "breakdowns": {d: {m: dict(sorted(counts.items())) for m, counts in by_metric.items()}
                       for d, by_metric in breakdown.items()},
    }


class OverviewCache:
    """The last overview, keyed by the store's fingerprint (checked on every request).

    The first overview is computed in the request. After that, when the fingerprint
    changes, a background thread recounts while requests get the previous overview marked
    `refreshing`, so no request waits for a full recount of a large store.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._key: tuple[int, ...] | None = None
        self._value: dict[str, Any] | None = None
        self._refresh: threading.Thread | None = None

    def get(self) -> dict[str, Any]:
        """The latest overview, with `as_of` and whether a newer one is being counted."""
        key = self.store.overview_fingerprint()
        with self._lock:
            if self._value is None:
                self._key, self._value = key, _stamped(compute_overview(self.store))
            elif key != self._key and (self._refresh is None or not self._refresh.is_alive()):
                self._refresh = threading.Thread(target=self._recount, args=(key,), daemon=True,
                                                 name="overview-recount")
                self._refresh.start()
            return {**self._value, "refreshing": key != self._key}

    def _recount(self, key: tuple[int, ...]) -> None:
        value = _stamped(compute_overview(self.store))
        with self._lock:
            self._key, self._value = key, value


def _stamped(overview: dict[str, Any]) -> dict[str, Any]:
    return {**overview, "as_of": datetime.now(UTC)}
