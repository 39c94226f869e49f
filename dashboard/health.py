"""`/health` (are the store and the index reachable) and Prometheus `/metrics` (volumes,
crawl pages and errors by reason, each outlet's health, run durations), both read from the
store when asked."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import open_index
from parawire.records import Reach, Run
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
        yield from self._outlets()
        yield self._durations(crawls)

    def _outlets(self) -> Iterator[Metric]:
        """Each outlet's health (alert on `parawire_outlet_failed_days >= 2`: an outlet that
        failed 2 days running) and the crawl's failed requests by error class."""
        up = GaugeMetricFamily("parawire_outlet_up", "1 when the outlet's latest crawl "
                               "reached it (ok or partial), 0 when it failed.", labels=["outlet"])
        partial = GaugeMetricFamily("parawire_outlet_partial", "1 when some listings of the "
                                    "outlet failed in its latest crawl.", labels=["outlet"])
        days = GaugeMetricFamily("parawire_outlet_failed_days", "Days (UTC) with a failed "
                                 "crawl of the outlet since a crawl last reached it.",
                                 labels=["outlet"])
        success = GaugeMetricFamily("parawire_outlet_last_success_timestamp_seconds",
                                    "When a crawl last reached the outlet (Unix time; absent: "
                                    "never).", labels=["outlet"])
        for name, health in self.store.outlet_health().items():
            up.add_metric([name], 0 if health.state is Reach.FAILED else 1)
            partial.add_metric([name], 1 if health.state is Reach.PARTIAL else 0)
            days.add_metric([name], health.failed_days)
            if health.last_success is not None:
                success.add_metric([name], health.last_success.replace(tzinfo=UTC).timestamp())
        failures = CounterMetricFamily("parawire_crawl_failures", "Requests of every crawl run "
                                       "that failed, by error class (http_503, timeout, "
                                       "CannotResolveHostError, bad_listing, ...).",
                                       labels=["error"])
        for error, count in self.store.crawl_error_totals().items():
            failures.add_metric([error], count)
        yield from (up, partial, days, success, failures)

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
