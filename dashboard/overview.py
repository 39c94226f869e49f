"""Volume per day, outlet, topic and language for articles, sentences, and the references
and pairs of the latest alignment run (with every run's totals beside)."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from parawire.store import OverviewFingerprint, Store

DIMENSIONS = ("day", "outlet", "topic", "language")
METRICS = ("articles", "sentences", "references", "pairs")
UNKNOWN = "unknown"
RECOUNT_PAUSE = 4  # a recount waits this many times the last count's duration
Breakdown = dict[str, dict[str, dict[str, int]]]  # dimension -> metric -> key -> count


def compute_overview(store: Store) -> dict[str, Any]:
    """Totals and the per-dimension breakdowns; references and pairs are the latest
    alignment run's (by their input sentence), `runs` has every run's totals."""
    breakdown: Breakdown = {d: {m: defaultdict(int) for m in METRICS} for d in DIMENSIONS}
    totals = dict.fromkeys(METRICS, 0)
    runs = store.run_totals()
    latest = max(runs, default=None)
    for metric, volumes in store.volume_counts(latest).items():
        for published, source, topic, language, count in volumes:
            keys = (published.isoformat() if published else UNKNOWN, source or UNKNOWN,
                    topic or UNKNOWN, language or UNKNOWN)
            for dimension, key in zip(DIMENSIONS, keys, strict=True):
                breakdown[dimension][metric][key] += count
            totals[metric] += count
    return {
        "totals": totals,
        "run": latest,
        "runs": {str(run_id): counts for run_id, counts in sorted(runs.items(), reverse=True)},
        "breakdowns": {d: {m: dict(sorted(counts.items())) for m, counts in by_metric.items()}
                       for d, by_metric in breakdown.items()},
    }


def provisional_overview(store: Store, fingerprint: tuple[int, ...]) -> dict[str, Any]:
    """An overview of what can be read at once (no breakdown), marked refreshing: articles
    and sentences as `fingerprint` (Store.overview_fingerprint) counted them, and every
    run's references and pairs (the latest run's as the totals)."""
    runs = store.run_totals()
    latest = max(runs, default=None)
    counted = runs.get(latest, {}) if latest is not None else {}
    read = OverviewFingerprint(*fingerprint)
    return {
        "totals": {"articles": read.articles, "sentences": read.sentences,
                   "references": counted.get("references", 0), "pairs": counted.get("pairs", 0)},
        "run": latest,
        "runs": {str(run_id): counts for run_id, counts in sorted(runs.items(), reverse=True)},
        "breakdowns": {d: {m: {} for m in METRICS} for d in DIMENSIONS},
        "as_of": datetime.now(UTC),
        "refreshing": True,
    }


class OverviewCache:
    """The last overview, keyed by the store's fingerprint (checked at most every
    `check_seconds`).

    Counting runs in a background thread, and each count is saved in the store: a server
    that starts answers at once from the saved overview (marked `refreshing` while it
    recounts when the store changed since), and `warm()` starts that recount as it starts.
    Only a store never counted makes the first request wait for the count under way, at
    most `first_wait` seconds: then it gets the totals read at once (`provisional`).
    After that, requests get the previous overview marked `refreshing` while a thread
    recounts, so no request waits for a recount of a large store. While rows keep coming
    (an alignment writing), a recount starts no sooner than RECOUNT_PAUSE times the last
    count's duration after it ended: the counting takes at most a fifth of one database
    connection's time instead of running back to back beside the requests.
    """

    def __init__(self, store: Store, check_seconds: float = 0,
                 first_wait: float | None = None) -> None:
        self.store = store
        self.check_seconds = check_seconds
        self.first_wait = first_wait  # None: wait for the first count to its end
        self._lock = threading.Lock()
        self._key: tuple[int, ...] | None = None
        self._value: dict[str, Any] | None = None
        self._error: Exception | None = None
        self._refresh: threading.Thread | None = None
        self._checked: tuple[float, tuple[int, ...]] | None = None
        self._checking = threading.Lock()  # one fingerprint query at a time
        self._rendered: dict[str, tuple[tuple[Any, ...], bytes]] = {}
        self._next_count = 0.0  # monotonic time before which no recount starts
        self._provisional: dict[str, Any] | None = None  # while the first count runs

    def warm(self) -> None:
        """Load the saved overview (on a store never counted, read the provisional totals
        before the first count starts to compete with them) and start a recount if the
        store changed since (the server calls it as it starts, before it listens)."""
        key = self._fingerprint()
        with self._lock:
            if self._value is None:
                self._load_saved()
            never_counted = self._value is None
        if never_counted and self.first_wait is not None:
            self._provisional_for(key)
        self._follow(key)

    def get(self) -> dict[str, Any]:
        """The latest overview, with `as_of` and whether a newer one is being counted."""
        key = self._fingerprint()
        pending = self._follow(key)
        if pending is not None:
            pending.join(self.first_wait)
            if pending.is_alive():
                return self._provisional_for(key)
        with self._lock:
            if self._value is None:
                assert self._error is not None
                raise self._error
            return {**self._value, "refreshing": key != self._key}

    def rendered(self, name: str, render: Callable[[dict[str, Any]], bytes],
                 live: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> bytes:
        """`render(overview)` of the latest overview, rendered once per count and state
        (so a request for an unchanged overview serialises nothing). `live(overview)` adds
        what is read afresh on every request (the review labels' precision): the page is
        rendered again when that changes too."""
        overview = self.get()
        added = live(overview) if live is not None else {}
        overview = {**overview, **added}
        version = (overview["as_of"], overview["refreshing"], repr(added))
        with self._lock:
            kept = self._rendered.get(name)
        if kept is not None and kept[0] == version:
            return kept[1]
        body = render(overview)
        with self._lock:
            self._rendered[name] = (version, body)
        return body

    def _provisional_for(self, key: tuple[int, ...]) -> dict[str, Any]:
        """While a never-counted store is counted for the first time: the totals read at
        once (articles and sentences from the fingerprint, every run's references and pairs
        from their run-keyed indexes), no breakdowns, marked refreshing. Read once."""
        with self._lock:
            if self._provisional is None:
                self._provisional = provisional_overview(self.store, key)
            return self._provisional

    def _follow(self, key: tuple[int, ...]) -> threading.Thread | None:
        """Recount when `key` is not what the overview counted; returns the count under way
        when there is no overview to answer with yet."""
        with self._lock:
            counting = self._refresh is not None and self._refresh.is_alive()
            if self._value is None and not counting:  # another process may have saved one
                self._load_saved()
            if key != self._key:
                self._start(key)
            return self._refresh if self._value is None else None

    def _fingerprint(self) -> tuple[int, ...]:
        """The store's fingerprint, read at most every `check_seconds` and by one request
        at a time: the others take the last one read meanwhile (none waits for the query
        unless there is none yet)."""
        checked = self._checked
        if checked is not None and time.monotonic() - checked[0] < self.check_seconds:
            return checked[1]
        if not self._checking.acquire(blocking=checked is None):
            assert checked is not None
            return checked[1]
        try:
            checked = self._checked
            if checked is not None and time.monotonic() - checked[0] < self.check_seconds:
                return checked[1]
            key = self.store.overview_fingerprint()
            self._checked = (time.monotonic(), key)
            return key
        finally:
            self._checking.release()

    def _load_saved(self) -> None:
        saved = self.store.saved_overview()
        if saved is not None:
            key, value, counted_at = saved
            self._key, self._value = key, {**value, "as_of": counted_at.replace(tzinfo=UTC)}

    def _start(self, key: tuple[int, ...]) -> None:
        """Start a recount for `key` unless one is running or the last one ended too
        recently (the caller holds the lock)."""
        if self._value is not None and time.monotonic() < self._next_count:
            return
        if self._refresh is None or not self._refresh.is_alive():
            self._refresh = threading.Thread(target=self._recount, args=(key,), daemon=True,
                                             name="overview-recount")
            self._refresh.start()

    def _recount(self, key: tuple[int, ...]) -> None:
        started = time.monotonic()
        try:
            value = compute_overview(self.store)
            counted_at = datetime.now(UTC)
            self.store.save_overview(key, value, counted_at.replace(tzinfo=None))
        except Exception as exc:
            with self._lock:
                self._error = exc
            return
        ended = time.monotonic()
        with self._lock:
            self._key, self._value, self._error = key, {**value, "as_of": counted_at}, None
            self._next_count = ended + RECOUNT_PAUSE * (ended - started)
