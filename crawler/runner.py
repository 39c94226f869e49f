"""Runs a crawl in a child process (Twisted's reactor starts once per process)."""

from __future__ import annotations

import multiprocessing
from datetime import date
from pathlib import Path
from typing import Any

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.store import open_store


def _crawl_in_child(store_url: str, run_id: int, sources_path: str, since: date, until: date,
                    crawl: dict[str, Any]) -> None:
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings as ScrapySettings

    import crawler.settings as defaults  # sets the offline suffix-list variable first
    from crawler.sources import load_sources
    from crawler.spiders.news import NewsSpider

    settings = ScrapySettings()
    settings.setmodule(defaults, priority="project")
    settings.setdict({
        "PARAWIRE_STORE_URL": store_url,
        "PARAWIRE_CRAWL_RUN_ID": run_id,
        "USER_AGENT": crawl["user_agent"],
        "ROBOTSTXT_OBEY": crawl["obey_robots"],
        "CONCURRENT_REQUESTS": crawl["concurrent_requests"],
        "DOWNLOAD_TIMEOUT": crawl["download_timeout"],
        "DOWNLOAD_MAXSIZE": crawl["max_download_bytes"],
    }, priority="cmdline")
    store = open_store(store_url)
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, sources=load_sources(Path(sources_path)), since=since, until=until,
                  min_text_chars=crawl["min_text_chars"], known_urls=store.known_urls())
    process.start()
    stats = crawler.stats.get_stats() if crawler.stats else {}
    counts = {key.removeprefix("parawire/"): int(value) for key, value in stats.items()
              if key.startswith("parawire/")}
    counts["pages_downloaded"] = int(stats.get("downloader/response_count", 0))
    store.finish_crawl_run(run_id, counts)


def sources_path(settings: Settings, override: str | Path | None = None) -> Path:
    """The sources file to crawl: an explicit path, crawl.sources, or the shipped one."""
    from crawler.sources import DEFAULT_SOURCES

    path = Path(override or settings.crawl.sources or DEFAULT_SOURCES)
    if not path.is_file():
        raise ParawireError(f"sources file not found: {path}")
    return path


def run_crawl(settings: Settings, since: date, until: date,
              sources: str | Path | None = None) -> dict[str, int]:
    """Crawl every outlet for articles published in [since, until]; returns the run's counts."""
    from crawler.sources import load_sources

    path = sources_path(settings, sources)
    load_sources(path)  # fail here, in one line, before a child process starts
    store = open_store(settings.store_url)
    run_id = store.start_crawl_run(
        {"since": since.isoformat(), "until": until.isoformat(), "sources": str(path)}
    )
    context = multiprocessing.get_context("spawn")
    child = context.Process(
        target=_crawl_in_child,
        args=(settings.store_url, run_id, str(path), since, until, settings.crawl.model_dump()),
    )
    child.start()
    child.join()
    run = next(r for r in store.crawl_runs(limit=50) if r.id == run_id)
    if child.exitcode != 0 or run.status != "finished":
        store.finish_crawl_run(run_id, run.counts, status="failed")
        raise ParawireError(f"crawl run {run_id} failed (crawler exit code {child.exitcode})")
    return {"run_id": run_id, **run.counts}
