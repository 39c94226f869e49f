"""Article links and their dates from RSS/Atom feeds and XML sitemaps."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from email.utils import parsedate_to_datetime

from lxml import etree


class ListingError(ValueError):
    """A feed or sitemap that cannot be parsed."""


@dataclass(frozen=True, slots=True)
class Listed:
    """A link found in a listing, with the date the listing gives (if any)."""

    url: str
    day: date | None
    is_sitemap: bool = False


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
        day = parse_date(_child_text(element, "lastmod"))
        for child in element:
            if _local(child.tag) == "news":
                day = parse_date(_child_text(child, "publication_date")) or day
        found.append(Listed(loc, day, is_sitemap=kind == "sitemapindex"))
    return found
