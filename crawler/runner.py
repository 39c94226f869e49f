"""Runs a crawl in a child process (Twisted's reactor starts once per process)."""

from __future__ import annotations

import multiprocessing
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.store import open_store


@dataclass(slots=True)
class CrawlScope:
    """Which outlets and topics a crawl keeps (empty lists: all of them)."""

    outlets: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    all_topics: bool = False


def scrapy_settings(crawl: dict[str, Any]) -> dict[str, Any]:
    """Scrapy settings from the [crawl] section of parawire's config."""
    return {
        "USER_AGENT": crawl["user_agent"],
        "ROBOTSTXT_OBEY": crawl["obey_robots"],
        "CONCURRENT_REQUESTS": crawl["concurrent_requests"],
        "CONCURRENT_REQUESTS_PER_DOMAIN": crawl["concurrent_per_domain"],
        "AUTOTHROTTLE_ENABLED": crawl["autothrottle"],
        "DOWNLOAD_TIMEOUT": crawl["download_timeout"],
        "DOWNLOAD_MAXSIZE": crawl["max_download_bytes"],
        "RETRY_TIMES": crawl["retry_times"],
        "RETRY_BACKOFF_BASE": crawl["retry_backoff"],
    }


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


def _crawl_in_child(store_url: str, run_id: int, sources_path: str, since: date, until: date,
                    crawl: dict[str, Any], scope: dict[str, Any], log_file: str) -> None:
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings as ScrapySettings

    import parawire.crawler.settings as defaults  # sets the offline suffix-list variable first
    from parawire.crawler.sources import load_sources
    from parawire.crawler.spiders.news import NewsSpider

    settings = ScrapySettings()
    settings.setmodule(defaults, priority="project")
    settings.setdict({"PARAWIRE_STORE_URL": store_url, "PARAWIRE_CRAWL_RUN_ID": run_id,
                      "LOG_FILE": log_file, "LOG_LEVEL": "INFO", **scrapy_settings(crawl)},
                     priority="cmdline")
    store = open_store(store_url)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, sources=load_sources(Path(sources_path)), since=since, until=until,
                  min_text_chars=crawl["min_text_chars"], known_urls=store.known_urls(),
                  **scope)
    process.start()
    store.finish_crawl_run(run_id, _counts(crawler.stats.get_stats() if crawler.stats else {}))


def sources_path(settings: Settings, override: str | Path | None = None) -> Path:
    """The sources file to crawl: an explicit path, crawl.sources, or the shipped one."""
    from parawire.crawler.sources import DEFAULT_SOURCES

    path = Path(override or settings.crawl.sources or DEFAULT_SOURCES)
    if not path.is_file():
        raise ParawireError(f"sources file not found: {path}")
    return path


def run_crawl(settings: Settings, since: date, until: date, sources: str | Path | None = None,
              scope: CrawlScope | None = None) -> dict[str, Any]:
    """Crawl the outlets for articles published in [since, until]; returns the run's counts.

    Each run logs every skipped or failed URL with its reason to data_dir/logs.
    """
    from parawire.crawler.sources import TOPICS, load_sources

    scope = scope or CrawlScope()
    path = sources_path(settings, sources)
    loaded = load_sources(path)  # fail here, in one line, before a child process starts
    for name in scope.outlets:
        loaded.outlet(name)
    unknown = sorted(set(scope.topics) - set(TOPICS))
    if unknown:
        raise ParawireError(f"unknown topic {unknown[0]!r} (topics: {', '.join(TOPICS)})")
    store = open_store(settings.store_url)
    run_id = store.start_crawl_run({"since": since.isoformat(), "until": until.isoformat(),
                                    "sources": str(path), **asdict(scope)})
    log_file = settings.data_dir.resolve() / "logs" / f"crawl-{run_id}.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("spawn")
    child = context.Process(
        target=_crawl_in_child,
        args=(settings.store_url, run_id, str(path), since, until, settings.crawl.model_dump(),
              asdict(scope), str(log_file)),
    )
    child.start()
    child.join()
    run = store.crawl_run(run_id)
    assert run is not None
    if child.exitcode != 0 or run.status != "finished":
        store.finish_crawl_run(run_id, run.counts, status="failed")
        raise ParawireError(f"crawl run {run_id} failed (crawler exit code {child.exitcode}); "
                            f"log: {log_file}")
    return {"run_id": run_id, "log": str(log_file), **run.counts}
