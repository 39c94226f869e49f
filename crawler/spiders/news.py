"""The news spider: feeds, sitemaps and section pages in, Articles out."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Iterator
from concurrent.futures import Executor
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import scrapy
from scrapy.http import HtmlResponse, Response, TextResponse

from parawire.config import CrawlConfig
from parawire.crawler.dates import publication_date
from parawire.crawler.decoding import page_text
from parawire.crawler.extraction import Extracted, canonical_url, extract
from parawire.crawler.failures import failure_reason
from parawire.crawler.language import detect_language, same_language
from parawire.crawler.listings import Listed, ListingError, parse_feed, parse_section, parse_sitemap
from parawire.crawler.outlets import OutletLearning, outlet_key
from parawire.crawler.reach import Tally
from parawire.crawler.sources import DEFAULT_SOURCES, Outlet, Section, Sources, load_sources
from parawire.crawler.topics import OTHER, assign_topic
from parawire.records import Article
from parawire.textnorm import content_hash

_CRAWL = CrawlConfig()


def _as_date(value: date | str | None, fallback: date) -> date:
    if value is None or value == "":
        return fallback
    return value if isinstance(value, date) else date.fromisoformat(value)


def _as_list(value: Iterable[str] | str | None) -> list[str]:
    if not value:
        return []
    return value.split(",") if isinstance(value, str) else list(value)


class NewsSpider(scrapy.Spider):
    """Follows each outlet's feeds, sitemaps and section pages to articles in a date window.

    Every page that yields no article is counted under the reason it was skipped
    (`skipped/<reason>`) or failed (`errors/<reason>`) and logged with its URL; each
    outlet's listings and pages, fetched or failed, are tallied in `reach`.
    """

    name = "news"

    def __init__(self, sources: Sources | str | None = None, since: date | str | None = None,
                 until: date | str | None = None, min_text_chars: int = _CRAWL.min_text_chars,
                 known_urls: set[str] | None = None, outlets: Iterable[str] | str | None = None,
                 topics: Iterable[str] | str | None = None, all_topics: bool = False,
                 learning: OutletLearning | None = None, pool: Executor | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(sources, Sources):
            sources = load_sources(Path(sources) if sources else DEFAULT_SOURCES)
        self.sources = sources
        self.outlets = [sources.outlet(name) for name in _as_list(outlets)] or sources.outlets
        self.topics = set(_as_list(topics))
        self.all_topics = all_topics in (True, "1", "true", "yes")
        self.today = datetime.now(UTC).date()
        self.since = _as_date(since, self.today - timedelta(days=1))
        self.until = _as_date(until, self.today)
        self.min_text_chars = int(min_text_chars)
        self.known_urls = known_urls or set()
        # Article URLs requested in this run. Requests skip Scrapy's duplicate filter so
        # that a redirect loop reaches the redirect limit and is reported as one.
        self.requested: set[str] = set()
        self.allowed_domains = sorted({d for o in self.outlets for d in o.domains})
        # Per-outlet boilerplate and site names (in memory only unless given a store's).
        self.learning = learning or OutletLearning(None)
        # Extraction off the reactor's thread (crawler.pool); None: in this thread.
        self.pool = pool
        self.reach = {outlet.name: Tally() for outlet in self.outlets}

    def closed(self, reason: str) -> None:
        """Scrapy hook: store what was learned of the outlets since the last save."""
        self.learning.save()

    # -- counting -------------------------------------------------------------------
    def count(self, key: str, n: int = 1) -> None:
        """Add to one of the run's counters."""
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"parawire/{key}", n)

    def skip(self, reason: str, url: str, quiet: bool = False) -> None:
        """Count a page skipped for `reason` and log it with its URL."""
        self.count(f"skipped/{reason}")
        (self.logger.debug if quiet else self.logger.info)("skipped %s: %s", url, reason)

    def in_window(self, day: date | None) -> bool:
        """Whether a date falls in [since, until] (unknown dates pass)."""
        return day is None or self.since <= day <= self.until

    def listed_in_window(self, item: Listed) -> bool:
        """Whether a listing's date leaves the link worth fetching.

        A sitemap's <lastmod> only rules a link out when it is before the window: a page
        changed after the window may still have been published in it.
        """
        if item.day_is_lastmod:
            return item.day is None or item.day >= self.since
        return self.in_window(item.day)

    # -- requests -------------------------------------------------------------------
    async def start(self) -> Any:
        """Scrapy 2.13+ entry point."""
        for request in self.start_requests():
            yield request

    def start_requests(self) -> Iterator[scrapy.Request]:
        """One request per feed, sitemap and section page of every outlet crawled."""
        for outlet in self.outlets:
            for url in outlet.feeds:
                yield self._listing(str(url), outlet, self.parse_feed)
            for url in outlet.sitemaps:
                yield self._listing(str(url), outlet, self.parse_sitemap)
            for section in outlet.sections:
                yield self._listing(str(section.url), outlet, self.parse_section,
                                    section=section, page=1)

    def _listing(self, url: str, outlet: Outlet, callback: Any, **extra: Any) -> scrapy.Request:
        return scrapy.Request(url, callback=callback, errback=self.failed,
                              cb_kwargs={"outlet": outlet, **extra}, dont_filter=True)

    def failed(self, failure: Any) -> None:
        """Log and count a request that could not be fetched, for its outlet too."""
        request = failure.request
        reason = failure_reason(failure.value)
        self.count(f"errors/{reason}")
        self.logger.warning("fetch failed: %s (%s)", request.url, reason)
        outlet = request.cb_kwargs.get("outlet")
        if outlet is not None:
            detail = (str(failure.value).strip().splitlines() or [""])[0][:200]
            self.reach[outlet.name].failed(request.callback != self.parse_article, reason,
                                           request.url, request.meta.get("retry_times", 0) + 1,
                                           detail)

    # -- listings -------------------------------------------------------------------
    def parse_feed(self, response: Response, outlet: Outlet) -> Iterator[scrapy.Request]:
        """Article requests from a feed."""
        yield from self._follow(response, outlet, parse_feed)

    def parse_sitemap(self, response: Response, outlet: Outlet) -> Iterator[scrapy.Request]:
        """Article requests (or child sitemaps) from a sitemap."""
        yield from self._follow(response, outlet, parse_sitemap)

    def parse_section(self, response: Response, outlet: Outlet, section: Section,
                      page: int) -> Iterator[scrapy.Request]:
        """Article requests from a section page, and its next page up to the limit."""
        if not isinstance(response, HtmlResponse):
            self._bad_listing(response.url, outlet, "not an HTML page")
            return
        try:
            found = parse_section(page_text(response)[0], response.url, section.article_pattern)
        except ListingError as exc:
            self._bad_listing(response.url, outlet, str(exc))
            return
        self._listing_read(outlet)
        for url in found.articles:
            yield from self._article_request(url, outlet, None)
        if found.next_page and page < section.max_pages and outlet.allows(found.next_page):
            yield self._listing(found.next_page, outlet, self.parse_section, section=section,
                                page=page + 1)

    def _bad_listing(self, url: str, outlet: Outlet, reason: str) -> None:
        self.count("errors/bad_listing")
        self.logger.warning("bad listing %s: %s", url, reason)
        self.reach[outlet.name].failed(True, "bad_listing", url, detail=reason)

    def _listing_read(self, outlet: Outlet) -> None:
        self.count("listings")
        self.reach[outlet.name].listings += 1

    def _follow(self, response: Response, outlet: Outlet, parser: Any) -> Iterator[scrapy.Request]:
        try:
            listed: list[Listed] = parser(response.body)
        except ListingError as exc:
            self._bad_listing(response.url, outlet, str(exc))
            return
        self._listing_read(outlet)
        for item in listed:
            url = response.urljoin(item.url)
            if not self.listed_in_window(item):
                self.skip("old_sitemap" if item.is_sitemap else "out_of_window", url, quiet=True)
            elif item.is_sitemap:
                yield self._listing(url, outlet, self.parse_sitemap)
            else:
                yield from self._article_request(
                    url, outlet, None if item.day_is_lastmod else item.day)

    def _article_request(self, url: str, outlet: Outlet,
                         listed_day: date | None) -> Iterator[scrapy.Request]:
        if not outlet.allows(url):
            self.skip("offsite", url)
        elif url in self.known_urls or canonical_url(url) in self.known_urls:
            self.skip("known_url", url, quiet=True)
        elif canonical_url(url) in self.requested:
            self.skip("listed_twice", url, quiet=True)
        else:
            self.requested.add(canonical_url(url))
            yield scrapy.Request(url, callback=self.parse_article, errback=self.failed,
                                 cb_kwargs={"outlet": outlet, "listed_day": listed_day},
                                 dont_filter=True)

    # -- articles -------------------------------------------------------------------
    async def extracted(self, html: str, url: str, outlet: Outlet) -> Extracted | None:
        """A page's article, extracted in the pool when the spider has one (the reactor
        goes on downloading meanwhile), with what the page's site taught so far (the
        worker gets the site's confirmed boilerplate; lines seen on one earlier page are
        dropped here); the page then adds to what its site teaches.

        The text's language is told here, from the worker's text, while the worker goes on
        with the next page (with fewer workers than cores, this process's core has room)."""
        site = outlet_key(url)
        args = (html, url, self.today, outlet.oldest, self.learning.hints(site))
        if self.pool is None:
            found = extract(*args)
        else:
            found = await asyncio.wrap_future(self.pool.submit(extract, *args))
        if found is not None:
            found.language = detect_language(found.text)
            found = self.learning.clean(site, found)
            self.learning.learn(site, found)
            if found.fallback:
                self.count(f"fallback/{found.fallback}")
        return found

    async def parse_article(self, response: Response, outlet: Outlet,
                            listed_day: date | None) -> AsyncIterator[Article]:
        """Extract one article; skip (and count) pages that hold none."""
        self.count("fetched")
        self.reach[outlet.name].pages += 1
        if not isinstance(response, HtmlResponse):
            content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
            self.skip("not_html", f"{response.url} ({content_type or 'no content type'})")
            return
        html, guessed = page_text(response)
        if guessed:
            self.count("repaired_encoding")
        found = await self.extracted(html, response.url, outlet)
        if found is None or len(found.text) < self.min_text_chars:
            self.skip("too_short", response.url)
            return
        if not same_language(found.language, outlet.language):
            self.skip("wrong_language", f"{response.url} ({found.language})")
            return
        published = found.published or publication_date([listed_day], outlet.oldest, self.today)
        if published is None:
            self.skip("no_date", response.url)
            return
        if not self.in_window(published):
            self.skip("out_of_window", response.url, quiet=True)
            return
        topic = assign_topic(found.title, found.text,
                             self.sources.topics.get(outlet.language, {}))
        if not self.wanted_topic(topic):
            self.skip("off_topic", f"{response.url} ({topic})", quiet=True)
            return
        yield self._article(response, outlet, found, published, topic)

    def wanted_topic(self, topic: str) -> bool:
        """Whether an article on `topic` is kept (--all-topics keeps topic `other` too)."""
        if self.all_topics:
            return True
        return topic != OTHER and (not self.topics or topic in self.topics)

    @staticmethod
    def _article(response: TextResponse, outlet: Outlet, found: Extracted, published: date,
                 topic: str) -> Article:
        canonical = found.canonical
        return Article(
            url=response.url,
            canonical_url=canonical_url(response.urljoin(canonical) if canonical else response.url),
            source=outlet.name,
            language=outlet.language,
            title=found.title,
            text=found.text,
            author=found.author,
            published=published,
            topic=topic,
            crawled_at=datetime.now(UTC).replace(tzinfo=None),
            content_hash=content_hash(found.text),
        )
