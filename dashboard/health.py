"""`/health` (are the store and the index reachable) and Prometheus `/metrics` (volumes,
crawl pages and errors by reason, run durations), both read from the store when asked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import open_index
from parawire.records import Run
from parawire.store import Store

RUNS_SEEN = 50  # /metrics reports on the latest crawl and alignment runs
ERRORS = "errors/"


def health(settings: Settings, store: Store) -> tuple[bool, dict[str, Any]]:
    """Whether the store and the index answer, each with its one-line reason when not."""
    checks: dict[str, dict[str, Any]] = {}
    try:
        store.alignment_runs(limit=1)  # one read of the store, as cheap as one can be
        checks["store"] = {"ok": True}
    except Exception as exc:
        checks["store"] = {"ok": False, "error": _line(exc)}
    try:
        checks["index"] = {"ok": True, "sentences": open_index(settings).count()}
    except (ParawireError, OSError, ValueError) as exc:
        checks["index"] = {"ok": False, "error": _line(exc)}
    ok = all(check["ok"] for check in checks.values())
    return ok, {"status": "ok" if ok else "unavailable", "checks": checks}


def _line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class StoreCollector:
    """Gauges read from the store at each scrape (the store is the one source of counts)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def collect(self) -> Iterator[Metric]:
        """The metrics, as prometheus_client asks for them."""
        rows = GaugeMetricFamily("parawire_rows", "Rows the store holds, by table.",
                                 labels=["table"])
        for table, count in sorted(self.store.counts().items()):
            rows.add_metric([table], count)
        yield rows
        fetched = GaugeMetricFamily("parawire_crawl_pages", "Pages the latest crawl runs "
                                    "counted, by outcome (fetched, stored, ...).",
                                    labels=["outcome"])
        errors = GaugeMetricFamily("parawire_crawl_errors", "Errors of the latest crawl runs, by reason.",
                                   labels=["reason"])
        totals: dict[str, int] = {}
        crawls = self.store.crawl_runs(limit=RUNS_SEEN)
        for run in crawls:
            for key, value in run.counts.items():
                totals[key] = totals.get(key, 0) + int(value)
        for key, value in sorted(totals.items()):
            if key.startswith(ERRORS):
                errors.add_metric([key.removeprefix(ERRORS)], value)
            else:
                fetched.add_metric([key], value)
        yield fetched
        yield errors
        yield self._durations(crawls)

    def _durations(self, crawls: list[Run]) -> Metric:
        durations = GaugeMetricFamily("parawire_run_duration_seconds",
                                      "Duration of the latest finished runs.",
                                      labels=["kind", "run", "status"])
        for kind, found in (("crawl", crawls),
                            ("alignment", self.store.alignment_runs(limit=RUNS_SEEN))):
            for run in found:
                if run.started_at and run.finished_at:
                    durations.add_metric([kind, str(run.id), run.status],
                                         (run.finished_at - run.started_at).total_seconds())
        return durations


def metrics_text(store: Store) -> bytes:
    """The Prometheus text exposition of the store's metrics."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(StoreCollector(store))
    return generate_latest(registry)
