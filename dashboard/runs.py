"""Crawl and alignment runs and index statistics, as the pages show them."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from parawire.config import Settings
from parawire.dashboard.throttle import Throttled
from parawire.errors import ParawireError
from parawire.indexer import open_index
from parawire.records import OutletHealth, Run
from parawire.store import Store

# The crawler counts failures as "errors/<type>" and dropped pages as "skipped/<reason>".
ERRORS, SKIPPED = "errors/", "skipped/"
# An alignment run's counts in pipeline order: references, what the index found, what
# each filter dropped, the pairs kept. Counts not named here follow, alphabetically.
FUNNEL = ("references_selected", "references", "references_done", "candidates",
          "above_beta", "syndicated", "near_verbatim", "length_ratio", "semantic",
          "pairs_built", "symmetric_duplicates", "pairs", "distinct_text_pairs")


@dataclass(slots=True)
class RunView:
    """A run with how it ended (status, and the reason of an interrupted or failed one),
    its counts (an alignment's in pipeline order); a crawl's outlets (empty: every outlet of
    its sources file), errors by type and skipped pages by reason apart."""

    id: int
    status: str
    reason: str
    started_at: datetime | None
    finished_at: datetime | None
    parameters: dict[str, Any]
    counts: dict[str, int]
    outlets: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)


def utc(moment: datetime | None) -> datetime | None:
    """A stored (naive UTC) time as an aware one, so the API writes it with its offset."""
    return moment.replace(tzinfo=UTC) if moment is not None else None


def _funnel_order(key: str) -> tuple[int, str]:
    return (FUNNEL.index(key) if key in FUNNEL else len(FUNNEL), key)


def run_view(run: Run) -> RunView:
    """The view of a crawl or alignment run."""
    assert run.id is not None
    outlets = run.parameters.get("outlets") or []
    view = RunView(id=run.id, status=run.status, reason=run.reason, started_at=utc(run.started_at),
                   finished_at=utc(run.finished_at), parameters=dict(run.parameters),
                   counts={}, outlets=[str(o) for o in outlets] if isinstance(outlets, list)
                   else [str(outlets)])
    for key, value in sorted(run.counts.items(), key=lambda item: _funnel_order(item[0])):
        if key.startswith(ERRORS):
            view.errors[key.removeprefix(ERRORS)] = value
        elif key.startswith(SKIPPED):
            view.skipped[key.removeprefix(SKIPPED)] = value
        else:
            view.counts[key] = value
    return view


def crawl_runs(store: Store, limit: int) -> list[RunView]:
    """The latest crawl runs, newest first, their errors by type apart."""
    return [run_view(run) for run in store.crawl_runs(limit=limit)]


@dataclass(slots=True)
class OutletView:
    """An outlet as its latest crawl left it: that crawl's verdict (ok, partial, failed)
    and reason, when a crawl last reached it, on how many days (UTC) its crawls have failed
    since, and its latest error."""

    outlet: str
    state: str
    reason: str
    last_success: datetime | None
    failed_days: int
    last_error: str
    last_error_at: datetime | None


def outlet_view(name: str, health: OutletHealth) -> OutletView:
    """The view of one outlet's health."""
    return OutletView(outlet=name, state=str(health.state), reason=health.reason,
                      last_success=utc(health.last_success), failed_days=health.failed_days,
                      last_error=health.last_error, last_error_at=utc(health.last_error_at))


def outlets(store: Store) -> list[OutletView]:
    """Every outlet the latest crawl runs crawled, by name."""
    return [outlet_view(name, health) for name, health in store.outlet_health().items()]


def alignment_runs(store: Store, limit: int) -> list[RunView]:
    """The latest alignment runs, newest first, with parameters and filter counts."""
    return [run_view(run) for run in store.alignment_runs(limit=limit)]


class IndexStatsCache:
    """What the index holds (SentenceIndex.stats, on either backend), read at most every
    `seconds` and by one request at a time (the stats count every keyword term and
    aggregate the days: 4 ms on each request of the crawl page otherwise)."""

    def __init__(self, settings: Settings, seconds: float) -> None:
        self.settings = settings
        self._read = Throttled(self._stats, seconds)

    def _stats(self) -> tuple[dict[str, Any] | None, str | None]:
        try:
            return asdict(open_index(self.settings).stats()), None
        except ParawireError as exc:
            return None, str(exc)

    def beside(self, stored: int) -> dict[str, Any]:
        """The index's statistics next to the `stored` sentences; an unreachable index
        gives its one-line error instead of the counts."""
        stats, error = self._read.get()
        return {"backend": self.settings.index.backend, "stored_sentences": stored,
                "not_indexed": None if stats is None else max(stored - stats["total"], 0),
                "stats": stats, "error": error}


def safe_link(url: str) -> str | None:
    """The URL when it is plain http(s), else None (never a javascript: or data: link)."""
    return url if re.match(r"https?://", url, re.IGNORECASE) else None
