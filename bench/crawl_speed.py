"""Crawl speed: the demo site plus 181 real news pages, served on 127.0.0.1.

    .venv/bin/python bench/crawl_speed.py

One crawl run per number of extraction processes (crawl.extract_processes = 1 and 2)
through the news spider (politeness off for loopback, all topics, every date since 1995)
into a fresh SQLite store; pages/s counts the article pages the spider fetched over the
crawl's own time (spider open to close) and over the whole run (with the crawler process's
start). The baselines extract the same article pages in one plain loop in this
process, before and after the crawls (their mean rate counts): trafilatura.extract with its
defaults, and the spider's extraction (crawler.extraction.extract: trafilatura's main text,
the page's own metadata, dates; then the language check, which the crawl does in its own
process). The load average is printed too: on a shared machine every figure moves with it,
the ratios less. CPU milliseconds per page (the loops', and the crawler's with its
extraction workers and start-up) do not depend on the load.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path

import trafilatura
from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.crawler import CRAWL, extract
from parawire.crawler.language import detect_language
from parawire.crawler.loopback import loopback_settings, serve_pages
from parawire.crawler.quality import by_language, load_saved_pages, mirror_site
from parawire.crawler.quality import sources_toml as saved_sources
from parawire.demo import build_site, load_articles, serve_demo
from parawire.demo import sources_toml as demo_sources

PROCESSES = (1, 2)


def article_pages() -> list[tuple[str, str]]:
    """(url, html) of every article page the crawl fetches: the demo's and the saved ones."""
    demo_site = build_site("http://127.0.0.1")
    demo = [(f"http://127.0.0.1{a.path}", demo_site[a.path][1].decode("utf-8"))
            for a in load_articles()]
    saved = [(page.url, page.html.decode("utf-8"))
             for page in load_saved_pages(SHARED_DATA / "extraction")]
    return demo + saved


def loop_rate(pages: list[tuple[str, str]],
              extractor: Callable[[str, str], object]) -> tuple[float, float]:
    """Pages per second of one plain loop over the pages, and its CPU milliseconds per page."""
    started, cpu = time.perf_counter(), time.process_time()
    for url, html in pages:
        extractor(html, url)
    cpu_ms = 1000 * (time.process_time() - cpu) / len(pages)
    return len(pages) / (time.perf_counter() - started), cpu_ms


def _cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def spider_extraction(html: str, url: str, today: date) -> str | None:
    """What the spider does to a page besides crawling it: extract, then tell the language."""
    found = extract(html, url, today)
    return None if found is None else detect_language(found.text)


def crawl_once(processes: int) -> dict:
    """Crawl both loopback sites in one run with this many extraction processes; returns its
    counts and timings."""
    settings = loopback_settings(load_settings(
        data_dir=Path(tempfile.mkdtemp(prefix="parawire-bench-")),
        crawl={"extract_processes": processes}))
    groups = by_language(load_saved_pages(SHARED_DATA / "extraction"))
    sources = settings.data_dir / "sources.toml"
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    with serve_demo() as demo_base, serve_pages(mirror_site(groups)) as saved_base:
        sources.write_text(demo_sources(demo_base) + "\n" + saved_sources(saved_base, groups))
        started = time.perf_counter()
        crawler_cpu = _cpu_seconds(resource.RUSAGE_CHILDREN)
        counts = CRAWL(settings, {"since": date(1995, 1, 1), "sources": str(sources),
                                  "all_topics": True})
        wall = time.perf_counter() - started
        crawler_cpu = _cpu_seconds(resource.RUSAGE_CHILDREN) - crawler_cpu
    # CPU of the crawler process and its extraction workers (all reaped by now), start-up
    # included: what the crawl costs whatever the machine's load.
    return {"counts": {k: v for k, v in counts.items() if k not in {"run_id", "log"}},
            "crawl_seconds": counts["elapsed_ms"] / 1000, "run_seconds": round(wall, 2),
            "crawler_cpu_ms_per_page": round(1000 * crawler_cpu / counts["fetched"], 1)}


def main() -> None:
    pages = article_pages()
    today = datetime.now(UTC).date()
    loops: dict[str, Callable[[str, str], object]] = {
        "plain": lambda html, url: trafilatura.extract(html, url=url),
        "spider": lambda html, url: spider_extraction(html, url, today)}
    # Each loop runs before and after the crawls, and counts at its mean rate: the load of a
    # shared machine changes in between.
    before = {name: loop_rate(pages, fn) for name, fn in loops.items()}
    crawls = {processes: crawl_once(processes) for processes in PROCESSES}
    after = {name: loop_rate(pages, fn) for name, fn in loops.items()}
    plain, spider_extract = ((before[name][0] + after[name][0]) / 2 for name in loops)
    loop_cpu = {f"{name}_loop_cpu_ms_per_page": round((before[name][1] + after[name][1]) / 2, 1)
                for name in loops}
    runs = {}
    for processes, crawl in crawls.items():
        rate = crawl["counts"]["fetched"] / crawl["crawl_seconds"]
        runs[f"extract_processes_{processes}"] = {
            **crawl, "pages_per_second": round(rate, 1),
            "pages_per_second_with_process_start":
                round(crawl["counts"]["fetched"] / crawl["run_seconds"], 1),
            "ratio_to_trafilatura_loop": round(rate / plain, 2),
            "ratio_to_spider_extraction_loop": round(rate / spider_extract, 2)}
    report("crawl_speed", {
        "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "article_pages": len(pages),
        "trafilatura_loop_pages_per_second": round(plain, 1),
        "spider_extraction_loop_pages_per_second": round(spider_extract, 1),
        **loop_cpu,
        **runs,
    })


if __name__ == "__main__":
    main()
