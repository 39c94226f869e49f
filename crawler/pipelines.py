"""Item pipeline: extracted Articles go to the store, deduplicated, in batched transactions."""

from __future__ import annotations

from typing import Any

from scrapy.utils.defer import deferred_from_coro
from sqlalchemy.exc import OperationalError

from parawire.config import load_settings
from parawire.crawler.dedup import NearDuplicates, store_articles
from parawire.records import Article
from parawire.stage import describe
from parawire.store import Store, open_store

# The crawl stats key under which a store failure is noted (the runner reads it).
FAILURE_STAT = "parawire_failure"
# Articles written per transaction: one commit per article would cost the crawl more than
# the articles' own writes.
BATCH = 50


class StorePipeline:
    """Stores articles; duplicates (by URL, canonical URL or content) are counted, not stored,
    and near-duplicates are counted and stored as copies of their original (crawler.dedup).
    Articles are written BATCH at a time, and the rest when the spider closes."""

    def __init__(self, store_url: str, crawl_run_id: int | None, stats: Any = None,
                 crawler: Any = None) -> None:
        self.store_url = store_url
        self.crawl_run_id = crawl_run_id
        self.stats = stats
        self.crawler = crawler
        self.store: Store | None = None
        self.near: NearDuplicates | None = None
        self.pending: list[Article] = []

    @classmethod
    def from_crawler(cls, crawler: Any) -> StorePipeline:
        """Scrapy hook: the store URL and run id come from the crawler's settings."""
        url = crawler.settings.get("PARAWIRE_STORE_URL") or load_settings().store_url
        return cls(url, crawler.settings.getint("PARAWIRE_CRAWL_RUN_ID") or None, crawler.stats,
                   crawler)

    def open_spider(self, spider: Any = None) -> None:
        """Connect to the store; its fingerprints are held for the whole crawl."""
        self.store = open_store(self.store_url)
        self.near = NearDuplicates(self.store)

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
        """Store the queued articles in one transaction and count their outcomes; when the
        store cannot take them (full, gone or damaged) the crawl stops and its run fails."""
        assert self.store is not None
        batch, self.pending = self.pending, []
        try:
            outcomes = store_articles(self.store, batch, self.crawl_run_id, self.near)
        except (OperationalError, OSError) as exc:
            self._fail(f"cannot store {len(batch)} articles ({batch[0].url} …): {describe(exc)}")
            return
        if self.stats is not None:
            for outcome in outcomes:
                self.stats.inc_value(f"parawire/{outcome.value}")

    def _fail(self, reason: str) -> None:
        """Stop the crawl: the store cannot take its articles (the run fails with `reason`)."""
        if self.stats is None or self.stats.get_value(FAILURE_STAT):
            return
        self.stats.set_value(FAILURE_STAT, reason)
        if self.crawler is not None and self.crawler.engine is not None:
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="store_error"))
