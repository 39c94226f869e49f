"""Item pipeline: extracted Articles go to the store, deduplicated, in batched transactions."""

from __future__ import annotations

from typing import Any

from parawire.config import load_settings
from parawire.crawler.dedup import store_articles
from parawire.records import Article
from parawire.store import Store, open_store

# Articles written per transaction: one commit per article would cost the crawl more than
# the articles' own writes.
BATCH = 50


class StorePipeline:
    """Stores articles; duplicates (by URL, canonical URL or content) are counted, not stored,
    and near-duplicates are counted and stored as copies of their original (crawler.dedup).
    Articles are written BATCH at a time, and the rest when the spider closes."""

    def __init__(self, store_url: str, crawl_run_id: int | None, stats: Any = None) -> None:
        self.store_url = store_url
        self.crawl_run_id = crawl_run_id
        self.stats = stats
        self.store: Store | None = None
        self.pending: list[Article] = []

    @classmethod
    def from_crawler(cls, crawler: Any) -> StorePipeline:
        """Scrapy hook: the store URL and run id come from the crawler's settings."""
        url = crawler.settings.get("PARAWIRE_STORE_URL") or load_settings().store_url
        return cls(url, crawler.settings.getint("PARAWIRE_CRAWL_RUN_ID") or None, crawler.stats)

    def open_spider(self, spider: Any = None) -> None:
        """Connect to the store."""
        self.store = open_store(self.store_url)

    def process_item(self, item: Article, spider: Any = None) -> Article:
        """Queue one article; store the queue when it is a batch."""
        self.pending.append(item)
        if len(self.pending) >= BATCH:
            self.flush()
        return item

    def close_spider(self, spider: Any = None) -> None:
        """Store the articles still queued."""
        self.flush()

    def flush(self) -> None:
        """Store the queued articles in one transaction and count their outcomes."""
        assert self.store is not None
        outcomes = store_articles(self.store, self.pending, self.crawl_run_id)
        self.pending = []
        if self.stats is not None:
            for outcome in outcomes:
                self.stats.inc_value(f"parawire/{outcome.value}")
