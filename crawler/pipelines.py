"""Item pipeline: each extracted Article goes to the store, deduplicated."""

from __future__ import annotations

from typing import Any

from parawire.config import load_settings
from parawire.crawler.dedup import store_article
from parawire.records import Article
from parawire.store import Store, open_store


class StorePipeline:
    """Stores articles; duplicates (by URL, canonical URL or content) are counted, not stored,
    and near-duplicates are counted and stored as copies of their original (crawler.dedup)."""

    def __init__(self, store_url: str, crawl_run_id: int | None, stats: Any = None) -> None:
        self.store_url = store_url
        self.crawl_run_id = crawl_run_id
        self.stats = stats
        self.store: Store | None = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> StorePipeline:
        """Scrapy hook: the store URL and run id come from the crawler's settings."""
        url = crawler.settings.get("PARAWIRE_STORE_URL") or load_settings().store_url
        return cls(url, crawler.settings.getint("PARAWIRE_CRAWL_RUN_ID") or None, crawler.stats)

    def open_spider(self, spider: Any = None) -> None:
        """Connect to the store."""
        self.store = open_store(self.store_url)

    def process_item(self, item: Article, spider: Any = None) -> Article:
        """Store one article and count the outcome."""
        assert self.store is not None
        outcome = store_article(self.store, item, self.crawl_run_id)
        if self.stats is not None:
            self.stats.inc_value(f"parawire/{outcome.value}")
        return item
