"""Main text, title, author and date of an article page (trafilatura)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import trafilatura
from htmldate import find_date
from lxml.html import HtmlElement
from trafilatura.utils import load_html

from parawire.crawler.body import (
    line_key,
    suspicion,
    without_boilerplate,
    without_headline,
)
from parawire.crawler.dates import (
    date_from_url,
    local_day,
    plausible,
    publication_date,
    stated_day,
    time_zone,
)
from parawire.crawler.headline import choose_headline
from parawire.crawler.language import detect_language
from parawire.crawler.page_meta import PageMeta, date_lines, line_stamps, read_page_meta
from parawire.crawler.typography import normalise_lines

TRACKING_PREFIXES = ("utm_", "fbclid", "gclid", "mc_", "ref", "cmpid", "ocid")
# A page that takes every path of `extract`: its fast body has no sentence (so the full
# extractor runs too) and it gives no date (so htmldate runs).
_WARM_UP_PAGE = ("<html><head><title>Warm-up</title></head><body><article><h1>Warm-up</h1>"
                 "<p>Warm-up page</p></article></body></html>")
# Labels under a country's domain that are not the site's name (bbc.co.uk, folha.com.br).
SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac", "ne", "or", "go", "edu"})


@dataclass(frozen=True, slots=True)
class OutletHints:
    """What the crawl learned of a page's outlet so far (crawler.outlets): keys of its
    boilerplate lines and its site name as title prefixes/suffixes."""

    boilerplate: frozenset[str] = frozenset()
    affixes: tuple[str, ...] = ()


@dataclass(slots=True)
class Extracted:
    """What the extractor found on a page; `line_keys` (every body line's key) and
    `page_titles` (<title>, og:title) are what the outlet's statistics learn from. The
    `language` of the text is not the extractor's: the crawl tells it in its own process
    (crawler.spiders.news), so that a worker's time goes to extraction only."""

    title: str
    text: str
    author: str
    published: date | None
    language: str = ""
    canonical: str = ""  # the page's <link rel="canonical"> as written (may be relative)
    line_keys: tuple[str, ...] = ()
    page_titles: tuple[str, ...] = ()
    fallback: str = ""


def canonical_url(url: str) -> str:
    """The URL without fragment and tracking parameters."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith(TRACKING_PREFIXES)]
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", urlencode(query), ""))


def _metadata_date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def site_label(url: str) -> str:
    """The name part of a URL's host ("dw" of www.dw.com, "bbc" of bbc.co.uk): a site-name
    hint."""
    labels = urlsplit(url).netloc.lower().split(":")[0].split(".")[:-1]
    while len(labels) > 1 and labels[-1] in SECOND_LEVEL:
        labels.pop()
    return labels[-1] if labels else ""


def _trafilatura(document: str | HtmlElement, url: str, fast: bool) -> Any:
    """Trafilatura's main text only: the page's metadata is read by crawler.page_meta."""
    return trafilatura.bare_extraction(document, url=url, with_metadata=False,
                                       include_comments=False, include_tables=False, fast=fast)


def _published(tree: HtmlElement, meta: PageMeta, url: str, today: date,
               oldest: date) -> date | None:
    """The article's own JSON-LD datePublished or article:published_time, else the URL's
    date, the timestamp of a <time> element by the headline, htmldate's guess from the
    page's markup (run only when those are missing or implausible), and last htmldate's
    search of the page's text (a page with no date is skipped). A timestamp's day is the
    one the page's date line states when that is the day before or after
    (crawler.dates.stated_day); where no line states one, a metadata timestamp that does
    not give the outlet's time zone (in UTC or none, and the page names no zone) takes the
    URL's day when that is the day before or after: the outlet wrote its own day there."""

    def guess(extensive: bool) -> date | None:
        return _metadata_date(find_date(
            tree, extensive_search=extensive, original_date=True, url=url,
            deferred_url_extractor=True, min_date=oldest.isoformat(),
            max_date=today.isoformat()))

    listed = publication_date([date_from_url(url)], oldest, today)
    stamped = next(((value, day) for value in (meta.ld_published, meta.meta_published)
                    if plausible(day := local_day(value, meta.zones), oldest, today)), None)
    if stamped is not None:
        value, stamp = stamped
    elif listed is not None:
        return listed
    else:
        value = ""
        stamp = (publication_date([local_day(time, meta.zones)
                                   for time in line_stamps(meta.headline_element)], oldest, today)
                 or publication_date([guess(False)], oldest, today)
                 or publication_date([guess(True)], oldest, today))
    if stamp is None:
        return None
    stated = stated_day(stamp, date_lines(meta.headline_element))
    if (stated is None and value and listed is not None and abs((listed - stamp).days) == 1
            and not (time_zone(value) or meta.zones)):
        stated = listed
    return publication_date([stated, stamp], oldest, today)


def extract(html: str, url: str, today: date, oldest: date = date(1995, 1, 1),
            hints: OutletHints = OutletHints()) -> Extracted | None:
    """The article on a page, or None when no main text is found.

    Trafilatura runs without its fallback extractors first (twice as fast); when that body
    looks like no article (crawler.body.suspicion) the page is extracted again with them, and
    that body is taken unless it looks so too.
    The headline is chosen by agreement (crawler.headline) and removed from the top of the
    body, the outlet's known boilerplate lines are dropped, and typography is normalised.
    The date is the article's own JSON-LD datePublished or article:published_time, then
    the URL's, a <time> element's by the headline, htmldate's, then one found in the page's
    text (`_published`); one in the future or before `oldest` is not taken. The title,
    author and date come from the page's own metadata (crawler.page_meta), not from
    trafilatura's, which costs a quarter of its time.
    """
    tree = load_html(html)
    if tree is None:
        return None
    meta = read_page_meta(tree)
    published = _published(tree, meta, url, today, oldest)
    doc, fallback = _trafilatura(tree, url, fast=True), ""
    lines = normalise_lines(doc.text) if doc is not None and doc.text else []
    reason = suspicion(lines, meta, hints.boilerplate)
    if reason:
        full = _trafilatura(html, url, fast=False)
        full_lines = normalise_lines(full.text) if full is not None and full.text else []
        if full_lines and (not lines or not suspicion(full_lines, meta, hints.boilerplate)):
            doc, lines, fallback = full, full_lines, reason
    if doc is None or not lines:
        return None
    title = choose_headline(meta, [site_label(url)], hints.affixes, meta.title)
    body = without_boilerplate(without_headline(lines, [title, meta.og_title, meta.title]),
                               hints.boilerplate)
    text = "\n".join(body)
    return Extracted(title=title, text=text, author=meta.author, canonical=meta.canonical,
                     published=published,
                     line_keys=tuple(line_key(line) for line in lines),
                     page_titles=tuple(t for t in (meta.title, meta.og_title) if t),
                     fallback=fallback)


def warm_up() -> None:
    """Load what a crawl otherwise loads on its first pages: the extractors' tables and
    lazily imported modules, and the language model of the crawl's language check. Worker
    processes forked afterwards start with them instead of loading them inside the crawl."""
    extract(_WARM_UP_PAGE, "http://localhost/warm-up", date.today())
    detect_language("warm-up")
