"""Runs a crawl in a child process (Twisted's reactor starts once per process)."""

from __future__ import annotations

import multiprocessing
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parawire.config import CrawlConfig, Settings
from parawire.crawler.scope import CrawlScope
from parawire.errors import ParawireError
from parawire.store import open_store

if TYPE_CHECKING:
    from scrapy.settings import Settings as ScrapySettings


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


def _crawl_in_child(store_url: str, run_id: int, sources_path: str, since: date, until: date,
                    crawl: CrawlConfig, scope: dict[str, Any], log_file: str) -> None:
    from scrapy.crawler import CrawlerProcess

    from parawire.crawler.outlets import OutletLearning
    from parawire.crawler.pool import extraction_pool
    from parawire.crawler.sources import load_sources
    from parawire.crawler.spiders.news import NewsSpider

    settings = scrapy_settings(crawl, PARAWIRE_STORE_URL=store_url, PARAWIRE_CRAWL_RUN_ID=run_id,
                               LOG_FILE=log_file, LOG_LEVEL="INFO")
    store = open_store(store_url)
    pool = extraction_pool(crawl.extract_processes)
    try:
        process = CrawlerProcess(settings)
        crawler = process.create_crawler(NewsSpider)
        process.crawl(crawler, sources=load_sources(Path(sources_path)), since=since,
                      until=until, min_text_chars=crawl.min_text_chars,
                      known_urls=store.known_urls(), learning=OutletLearning(store), pool=pool,
                      **scope)
        process.start()
    finally:
        pool.shutdown(cancel_futures=True)
    store.finish_crawl_run(run_id, _counts(crawler.stats.get_stats() if crawler.stats else {}))


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
    counts (the crawl stage).

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
    context = multiprocessing.get_context("spawn")
    child = context.Process(
        target=_crawl_in_child,
        args=(settings.store_url, run_id, str(path), since, until, settings.crawl,
              _filters(scope), str(log_file)),
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
