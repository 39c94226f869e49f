"""The crawler: Scrapy spiders over outlets' feeds and sitemaps, storing Articles."""

from parawire.crawler.dedup import store_article, store_articles
from parawire.crawler.extraction import Extracted, canonical_url, extract
from parawire.crawler.ingest import INGEST, IngestScope, run_ingest
from parawire.crawler.runner import crawl_verdict, run_crawl, run_summary, sources_path
from parawire.crawler.scope import CrawlScope
from parawire.crawler.sources import Outlet, Sources, load_sources
from parawire.crawler.stage import CRAWL
from parawire.crawler.topics import assign_topic

__all__ = [
    "CRAWL", "INGEST", "CrawlScope", "Extracted", "IngestScope", "Outlet", "Sources",
    "assign_topic", "canonical_url", "crawl_verdict", "extract", "load_sources", "run_crawl",
    "run_ingest", "run_summary", "sources_path", "store_article", "store_articles",
]
