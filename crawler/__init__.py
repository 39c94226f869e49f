"""The crawler: Scrapy spiders over outlets' feeds and sitemaps, storing Articles."""

from parawire.crawler.dedup import store_article, store_articles
from parawire.crawler.extraction import Extracted, canonical_url, extract
from parawire.crawler.ingest import INGEST, IngestScope, run_ingest
from parawire.crawler.runner import run_crawl, sources_path
from parawire.crawler.scope import CrawlScope
from parawire.crawler.sources import Outlet, Sources, load_sources
from parawire.crawler.stage import CRAWL
from parawire.crawler.topics import assign_topic

__all__ = [
    "CRAWL", "INGEST", "CrawlScope", "Extracted", "IngestScope", "Outlet", "Sources",
    "assign_topic", "canonical_url", "extract", "load_sources", "run_crawl", "run_ingest",
    "sources_path", "store_article", "store_articles",
]
