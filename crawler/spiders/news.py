"""The news spider: feeds and sitemaps in, Articles out."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import scrapy
from scrapy.http import Response, TextResponse

from crawler.extraction import canonical_url, extract
from crawler.listings import Listed, ListingError, parse_feed, parse_sitemap
from crawler.sources import DEFAULT_SOURCES, Outlet, Sources, load_sources
from crawler.topics import assign_topic
from parawire.records import Article
from parawire.textnorm import content_hash


def _as_date(value: date | str | None, fallback: date) -> date:
    if value is None or value == "":
        return fallback
    return value if isinstance(value, date) else date.fromisoformat(value)


class NewsSpider(scrapy.Spider):
    """Follows each outlet's feeds and sitemaps to article pages within a date window."""

    name = "news"

    def __init__(self, sources: Sources | str | None = None, since: date | str | None = None,
                 until: date | str | None = None, min_text_chars: int = 300,
                 known_urls: set[str] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(sources, Sources):
            sources = load_sources(Path(sources) if sources else DEFAULT_SOURCES)
        self.sources = sources
        self.today = datetime.now(UTC).date()
        self.since = _as_date(since, self.today - timedelta(days=1))
        self.until = _as_date(until, self.today)
        self.min_text_chars = int(min_text_chars)
        self.known_urls = known_urls or set()
        self.allowed_domains = sorted({d for o in sources.outlets for d in o.domains})

    # -- counting -------------------------------------------------------------------
    def count(self, key: str, n: int = 1) -> None:
        """Add to one of the run's counters."""
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"parawire/{key}", n)

    def in_window(self, day: date | None) -> bool:
        """Whether a date falls in [since, until] (unknown dates pass)."""
        return day is None or self.since <= day <= self.until

    # -- requests -------------------------------------------------------------------
    async def start(self) -> Any:
        """Scrapy 2.13+ entry point."""
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        """One request per feed and sitemap of every outlet."""
        for outlet in self.sources.outlets:
            for url in outlet.feeds:
                yield self._listing(str(url), outlet, self.parse_feed)
            for url in outlet.sitemaps:
                yield self._listing(str(url), outlet, self.parse_sitemap)

    def _listing(self, url: str, outlet: Outlet, callback: Any) -> scrapy.Request:
        return scrapy.Request(url, callback=callback, errback=self.failed,
                              cb_kwargs={"outlet": outlet}, dont_filter=True)

    def failed(self, failure: Any) -> None:
        """Log and count a request that could not be fetched."""
        reason = type(failure.value).__name__
        response = getattr(failure.value, "response", None)
        if response is not None:
            reason = f"http_{response.status}"
        self.count(f"errors/{reason}")
        self.logger.warning("fetch failed: %s (%s)", failure.request.url, reason)

    # -- listings -------------------------------------------------------------------
    def parse_feed(self, response: Response, outlet: Outlet) -> Iterator[scrapy.Request]:
        """Article requests from a feed."""
        yield from self._follow(response, outlet, parse_feed)

    def parse_sitemap(self, response: Response, outlet: Outlet) -> Iterator[scrapy.Request]:
        """Article requests (or child sitemaps) from a sitemap."""
        yield from self._follow(response, outlet, parse_sitemap)

    def _follow(self, response: Response, outlet: Outlet, parser: Any) -> Iterator[scrapy.Request]:
        try:
            listed: list[Listed] = parser(response.body)
        except ListingError as exc:
            self.count("errors/bad_listing")
            self.logger.warning("bad listing %s: %s", response.url, exc)
            return
        self.count("listings")
        for item in listed:
            url = response.urljoin(item.url)
            if item.is_sitemap:
                yield self._listing(url, outlet, self.parse_sitemap)
                continue
            if not self.in_window(item.day):
                self.count("skipped/out_of_window")
                continue
            if url in self.known_urls or canonical_url(url) in self.known_urls:
                self.count("skipped/known_url")
                continue
            yield scrapy.Request(url, callback=self.parse_article, errback=self.failed,
                                 cb_kwargs={"outlet": outlet, "listed_day": item.day})

    # -- articles -------------------------------------------------------------------
    def parse_article(self, response: Response, outlet: Outlet,
                      listed_day: date | None) -> Iterator[Article]:
        """Extract one article; skip (and count) pages that hold none."""
        self.count("fetched")
        if not isinstance(response, TextResponse):
            self.count("skipped/not_html")
            return
        found = extract(response.text, response.url, self.today)
        if found is None or len(found.text) < self.min_text_chars:
            self.count("skipped/too_short")
            return
        published = found.published or listed_day
        if published is None:
            self.count("skipped/no_date")
            return
        if not self.in_window(published):
            self.count("skipped/out_of_window")
            return
        canonical = response.css('link[rel="canonical"]::attr(href)').get()
        groups = self.sources.topics.get(outlet.language, {})
        yield Article(
            url=response.url,
            canonical_url=canonical_url(response.urljoin(canonical) if canonical else response.url),
            source=outlet.name,
            language=outlet.language,
            title=found.title,
            text=found.text,
            author=found.author,
            published=published,
            topic=assign_topic(found.title, found.text, groups),
            crawled_at=datetime.now(UTC).replace(tzinfo=None),
            content_hash=content_hash(found.text),
        )
