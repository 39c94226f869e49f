"""Article links: RSS/Atom feeds and XML sitemaps (with their dates), section pages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime

import lxml.html
from lxml import etree


class ListingError(ValueError):
    """A feed or sitemap that cannot be parsed."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A link found in a listing, with the date the listing gives (if any)."""

    url: str
    day: date | None
    is_sitemap: bool = False
    # The day is a sitemap's <lastmod>: when the page last changed, not when it appeared.
    day_is_lastmod: bool = False


def parse_date(value: str | None) -> date | None:
    """A date from RFC 822 (RSS) or ISO 8601 (Atom, sitemaps) text."""
    if not value:
        return None
    value = value.strip()
    try:
        return parsedate_to_datetime(value).date()
    except (TypeError, ValueError, IndexError):
        pass
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).date()
    except ValueError:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None


def _root(body: bytes) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False,
                             huge_tree=False)
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise ListingError(f"invalid XML: {exc}") from None
    if root is None:
        raise ListingError("empty document")
    return root


def _local(tag: object) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _child_text(element: etree._Element, *names: str) -> str | None:
    for child in element:
        if _local(child.tag) in names and child.text:
            return child.text.strip()
    return None


def parse_feed(body: bytes) -> list[Listed]:
    """Links of an RSS 2.0 or Atom feed."""
    root = _root(body)
    found: list[Listed] = []
    for element in root.iter():
        name = _local(element.tag)
        if name == "item":
            link = _child_text(element, "link")
            day = parse_date(_child_text(element, "pubDate", "date", "published"))
            if link:
                found.append(Listed(link, day))
        elif name == "entry":
            href = next((child.get("href") for child in element
                         if _local(child.tag) == "link" and child.get("rel", "alternate") ==
                         "alternate"), None)
            day = parse_date(_child_text(element, "published", "updated"))
            if href:
                found.append(Listed(href, day))
    if _local(root.tag) not in {"rss", "feed", "RDF"}:
        raise ListingError(f"not a feed (root element <{_local(root.tag)}>)")
    return found


def parse_sitemap(body: bytes) -> list[Listed]:
    """Links of a sitemap (<urlset>) or child sitemaps of a sitemap index."""
    root = _root(body)
    kind = _local(root.tag)
    if kind not in {"urlset", "sitemapindex"}:
        raise ListingError(f"not a sitemap (root element <{kind}>)")
    found: list[Listed] = []
    for element in root:
        loc = _child_text(element, "loc")
        if not loc:
            continue
        published = next((parse_date(_child_text(child, "publication_date"))
                          for child in element if _local(child.tag) == "news"), None)
        day = published or parse_date(_child_text(element, "lastmod"))
        found.append(Listed(loc, day, is_sitemap=kind == "sitemapindex",
                            day_is_lastmod=published is None and day is not None))
    return found


@dataclass(frozen=True, slots=True)
class SectionPage:
    """Article links of a section page and its next page, if it links one."""

    articles: list[str]
    next_page: str | None


def parse_section(html: str, base_url: str, article_pattern: str) -> SectionPage:
    """Links of a section (listing) page whose absolute URL matches `article_pattern`.

    The next page is the page's rel="next" link (a <link> or an <a>).
    """
    try:
        tree = lxml.html.document_fromstring(html, base_url=base_url)
    except (etree.ParserError, ValueError) as exc:
        raise ListingError(f"unparsable section page: {exc}") from None
    tree.make_links_absolute(base_url, handle_failures="discard")
    pattern = re.compile(article_pattern)
    seen: dict[str, None] = {}
    for anchor in tree.iter("a"):
        href = (anchor.get("href") or "").split("#", 1)[0]
        if href.startswith(("http://", "https://")) and pattern.search(href):
            seen.setdefault(href, None)
    following = tree.xpath('//link[@rel="next"]/@href | //a[@rel="next"]/@href')
    return SectionPage(list(seen), str(following[0]) if following else None)
