"""The crawler: Scrapy spiders over outlets' feeds and sitemaps, storing Articles."""

import parawire.crawler.settings  # noqa: F401  (first: keeps tldextract offline)
from parawire.crawler.dedup import store_article
from parawire.crawler.extraction import Extracted, canonical_url, extract
from parawire.crawler.runner import CrawlScope, run_crawl, sources_path
from parawire.crawler.sources import Outlet, Sources, load_sources
from parawire.crawler.topics import assign_topic

__all__ = [
    "CrawlScope", "Extracted", "Outlet", "Sources", "assign_topic", "canonical_url", "extract",
    "load_sources", "run_crawl", "sources_path", "store_article",
]
