"""Runs a crawl in a child process (Twisted's reactor starts once per process)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parawire.config import CrawlConfig, Settings
from parawire.crawler.pipelines import FAILURE_STAT
from parawire.crawler.reach import Tally, outlet_health, run_verdict
from parawire.crawler.scope import CrawlScope
from parawire.errors import NoOutletReached, OutletsFailed, ParawireError
from parawire.records import CrawlRun
from parawire.stage import interrupt_reason
from parawire.store import Store, open_store

if TYPE_CHECKING:
    from scrapy.settings import Settings as ScrapySettings

# Seconds a stopped crawl child gets to close its crawl before it is killed.
CHILD_STOP_SECONDS = 30


def scrapy_settings(crawl: CrawlConfig, **extra: Any) -> ScrapySettings:
    """A crawl's Scrapy settings: the project's (crawler/settings.py), with the [crawl]
    section and `extra` over them."""
    from scrapy.settings import Settings as ScrapySettings

    from parawire.crawler import settings as project

    settings = ScrapySettings()
    settings.setmodule(project, priority="project")
    settings.setdict({**project.from_config(crawl), **extra}, priority="cmdline")
    return settings


def _counts(stats: dict[str, Any]) -> dict[str, int]:
    counts = {key.removeprefix("parawire/"): int(value) for key, value in stats.items()
              if key.startswith("parawire/")}
    counts["pages_downloaded"] = int(stats.get("downloader/response_count", 0))
    # The crawl's own time, from the spider's opening to its closing (no process start).
    counts["elapsed_ms"] = int(1000 * stats.get("elapsed_time_seconds", 0))
    for source, name in (("retry/count", "retries"), ("offsite/filtered", "skipped/offsite")):
        if stats.get(source):
            counts[name] = counts.get(name, 0) + int(stats[source])
    return counts


def _crawler_process(settings: ScrapySettings) -> Any:
    """A Scrapy CrawlerProcess that remembers the signal that stopped it (`stopped_by`): a
    crawl stopped while its spider opens has no finish reason of its own to say so."""
    from scrapy.crawler import CrawlerProcess

    class SignalledCrawlerProcess(CrawlerProcess):
        stopped_by = ""

        def _signal_shutdown(self, signum: int, frame: Any) -> None:  # Scrapy's handler
            self.stopped_by = self.stopped_by or signal.Signals(signum).name
            super()._signal_shutdown(signum, frame)

    return SignalledCrawlerProcess(settings)


def crawl_here(job: dict[str, Any]) -> None:
    """Run one crawl in this process (a child of the crawl stage's) and close its run:
    finished, interrupted (stopped by a signal) or failed, with the reason."""
    from parawire.crawler.outlets import OutletLearning
    from parawire.crawler.pool import extraction_pool
    from parawire.crawler.sources import load_sources
    from parawire.crawler.spiders.news import NewsSpider

    crawl, run_id = CrawlConfig.model_validate(job["crawl"]), job["run_id"]
    settings = scrapy_settings(crawl, PARAWIRE_STORE_URL=job["store_url"],
                               PARAWIRE_CRAWL_RUN_ID=run_id, LOG_FILE=job["log_file"],
                               LOG_LEVEL="INFO")
    store = open_store(job["store_url"])
    pool = extraction_pool(crawl.extract_processes)
    try:
        process = _crawler_process(settings)
        crawler = process.create_crawler(NewsSpider)
        process.crawl(crawler, sources=load_sources(Path(job["sources"])),
                      since=date.fromisoformat(job["since"]),
                      until=date.fromisoformat(job["until"]),
                      min_text_chars=crawl.min_text_chars, known_urls=store.known_urls(),
                      learning=OutletLearning(store), pool=pool, **job["filters"])
        process.start()
    finally:
        pool.shutdown(cancel_futures=True)
    stats = crawler.stats.get_stats() if crawler.stats else {}
    ended, failure = str(stats.get("finish_reason", "")), stats.get(FAILURE_STAT)
    if failure:  # the store could not take articles (even those of the last batch)
        store.finish_crawl_run(run_id, _counts(stats), "failed", str(failure))
    elif ended == "finished":
        _finish(store, run_id, _counts(stats), crawler.spider.reach)
    elif ended == "shutdown" or process.stopped_by:  # also stopped while its spider opened
        store.finish_crawl_run(run_id, _counts(stats), "interrupted",
                               _stopped_by(process.stopped_by or "a signal"))
    else:
        store.finish_crawl_run(run_id, _counts(stats), "failed",
                               f"the crawl ended with {ended or 'no reason'}")


def _finish(store: Store, run_id: int, counts: dict[str, int], reach: dict[str, Tally]) -> None:
    """Close a crawl that ended by itself: failed when it reached no outlet, otherwise
    finished (partial, or a quiet day, said in its reason); each outlet's health carried on
    from its previous run."""
    when = datetime.now(UTC).replace(tzinfo=None)
    previous = store.outlet_health(reach)
    outlets = {name: outlet_health(name, tally, previous.get(name), when)
               for name, tally in reach.items()}
    status, reason = run_verdict(outlets, counts.get("stored", 0))
    store.finish_crawl_run(run_id, counts, status, reason, outlets, finished_at=when)


def _filters(scope: CrawlScope) -> dict[str, Any]:
    """The spider's outlet and topic filters."""
    return scope.model_dump(include={"outlets", "topics", "all_topics"})


def sources_path(settings: Settings, override: str | Path | None = None) -> Path:
    """The sources file to crawl: an explicit path, crawl.sources, or the shipped one."""
    from parawire.crawler.sources import DEFAULT_SOURCES

    path = Path(override or settings.crawl.sources or DEFAULT_SOURCES)
    if not path.is_file():
        raise ParawireError(f"sources file not found: {path}")
    return path


def run_crawl(settings: Settings, scope: CrawlScope) -> dict[str, Any]:
    """Crawl the scope's outlets for articles published in its window; returns the run's
    counts (the crawl stage), with its status, whether it is partial, the outlets that
    failed and its reason. A run that reached no outlet returns as "failed" (`crawl_verdict`
    turns that into an error); any other failure raises.

    Each run logs every skipped or failed URL with its reason to data_dir/logs.
    """
    from parawire.crawler.sources import TOPICS, load_sources

    assert scope.since is not None and scope.until is not None  # the scope fills its window
    since, until = scope.since, scope.until
    path = sources_path(settings, scope.sources)
    loaded = load_sources(path)  # fail here, in one line, before a child process starts
    for name in scope.outlets:
        loaded.outlet(name)
    unknown = sorted(set(scope.topics) - set(TOPICS))
    if unknown:
        raise ParawireError(f"unknown topic {unknown[0]!r} (topics: {', '.join(TOPICS)})")
    store = open_store(settings.store_url)
    run_id = store.start_crawl_run({"since": since.isoformat(), "until": until.isoformat(),
                                    "sources": str(path), **_filters(scope)})
    log_file = settings.data_dir.resolve() / "logs" / f"crawl-{run_id}.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    job = {"store_url": settings.store_url, "run_id": run_id, "sources": str(path),
           "since": since.isoformat(), "until": until.isoformat(),
           "crawl": settings.crawl.model_dump(mode="json"), "filters": _filters(scope),
           "log_file": str(log_file)}
    exitcode = _run_child(store, run_id, job)
    run = store.crawl_run(run_id)
    assert run is not None
    if run.status == "running":  # the child ended before it could close its run
        store.finish_crawl_run(run_id, run.counts, *_child_ending(exitcode, log_file))
        run = store.crawl_run(run_id)
        assert run is not None
    unreached = run.status == "failed" and bool(run.outlets)
    if run.status != "finished" and not unreached:
        raise ParawireError(f"crawl run {run_id} {run.status}: {run.reason}; log: {log_file}")
    return {"run_id": run_id, "log": str(log_file), **run_summary(run), **run.counts}


def _stopped_by(signal_name: str) -> str:
    """The reason of a crawl run a signal stopped."""
    return f"the crawler was stopped by {signal_name}"


def _child_ending(exitcode: int, log_file: Path) -> tuple[str, str]:
    """The status and reason of a run whose child ended without closing it: interrupted
    when a signal ended it (a negative exit code), failed otherwise."""
    if exitcode < 0:
        return "interrupted", _stopped_by(signal.Signals(-exitcode).name)
    return "failed", f"the crawler exited with code {exitcode}; log: {log_file}"


def run_summary(run: CrawlRun) -> dict[str, Any]:
    """How a crawl run ended, as the crawl stage reports it."""
    return {"status": run.status, "partial": run.partial, "failed_outlets": run.failed_outlets,
            **({"reason": run.reason} if run.reason else {})}


def crawl_verdict(runs: list[dict[str, Any]]) -> OutletsFailed | None:
    """The error that crawl results (of `run_crawl`) make of their outlets' failures: none
    reached (every run failed), some failed (a run failed or is partial), or None."""
    failed = [run for run in runs if run.get("status") == "failed"]
    troubled = [run for run in runs if run.get("status") == "failed" or run.get("partial")]
    if not troubled:
        return None
    reasons = "; ".join(f"run {run['run_id']}: {run.get('reason', '')}" for run in troubled)
    if runs and len(failed) == len(runs):
        return NoOutletReached(f"the crawl reached no outlet: {reasons}")
    outlets = sorted({name for run in troubled for name in run.get("failed_outlets", [])})
    return OutletsFailed(f"some outlets failed ({', '.join(outlets)}): {reasons}")


def _run_child(store: Store, run_id: int, job: dict[str, Any]) -> int:
    """Run the crawl in a child process (a plain subprocess, so that a daemonic Celery pool
    process may start it, and the child may start processes of its own); returns its exit
    code. The child has a session of its own (Ctrl-C reaches it once, from here): an
    interrupt here stops the child and records the run as interrupted. Whatever is left of
    that session once the child has ended (extraction workers of a child that was killed) is
    killed, so that nothing of the crawl outlives it."""
    child = subprocess.Popen([sys.executable, "-m", "parawire.crawler.child"],
                             stdin=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert child.stdin is not None
        child.stdin.write(json.dumps(job))
        child.stdin.close()
        return child.wait()
    except KeyboardInterrupt as exc:
        _stop(child)
        store.stop_crawl_run(run_id, "interrupted", interrupt_reason(exc))
        raise
    except BaseException:
        _stop(child)
        raise
    finally:
        _kill_session(child.pid)


def _stop(child: subprocess.Popen[str]) -> None:
    """Ask the child to stop (Scrapy closes the crawl cleanly), then make sure it does."""
    if child.poll() is None:
        child.send_signal(signal.SIGTERM)
    try:
        child.wait(timeout=CHILD_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def _kill_session(leader: int) -> None:
    """Kill every process left in the session (and process group) `leader` started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(leader, signal.SIGKILL)
