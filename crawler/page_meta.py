"""What a page says about itself: headline candidates, site-name hints, the article's own
dates (JSON-LD, <meta>), and the text of its links; read from the parsed page once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from itertools import islice
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from parawire.crawler.dates import is_update, time_zone
from parawire.crawler.typography import normalise

# JSON-LD types whose datePublished and headline are the article's own.
ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle",
    "OpinionNewsArticle", "BackgroundNewsArticle", "ReviewNewsArticle", "BlogPosting",
    "LiveBlogPosting", "TechArticle", "Report", "SatiricalArticle", "ScholarlyArticle"})
_BYLINE = re.compile(r"^by\s+", re.IGNORECASE)
PUBLISHED_META = ("article:published_time", "og:article:published_time",
                  "datePublished", "pubdate", "publishdate", "date")
# Parts of an <h1> that are not its headline, by class or itemprop: a kicker or label set
# apart from it, text for screen readers only or hidden ("hidden" alone: "hidden-xs" is
# shown on larger screens).
_NOT_HEADLINE = re.compile(
    r"kicker|eyebrow|overline|dachzeile|topline|roofline|supertitle|pretitle|intro|rubric|"
    r"label|flag|sr-only|visually-hidden|screen-reader|(?<![\w-])hidden(?![\w-])",
    re.IGNORECASE)
# The <h1>s, the elements with an itemprop and the links with a rel, in one pass over the
# page (cheaper than testing attribute values in XPath): the headline elements (<h1>s,
# itemprop=headline) and the author's (itemprop=author, rel=author) are among them.
_MARKED = etree.XPath("//h1|//*[@itemprop]|//a[@rel]")
# Elements that break a line: their text is apart from their neighbours'.
_BLOCKS = frozenset({"br", "div", "p", "li", "h2", "h3", "h4", "header"})
# Elements that show the article's date: <time>, and those whose class, id or itemprop says
# date, time, byline or publication; read after the headline <h1> (a header strip's date
# of today comes before it), near it, and when short enough to be a date line.
_DATE_ATTRIBUTE = re.compile(r"date|time|byline|posted|publi", re.IGNORECASE)
# Levels above the headline <h1> within which its date line is looked for, and how many
# elements after it.
DATE_LEVELS = 4
DATE_SCAN = 60
DATE_LINE_CHARS = 160
# How many date lines are kept (the byline's comes first; later ones are other stories').
DATE_LINES = 8


@dataclass(slots=True)
class PageMeta:
    """Headline candidates by where they were found (`h1`: the <h1>s and the elements marked
    as the headline; `article_h1`: those inside an <article> or marked as the headline),
    site names, dates, link texts."""

    h1: list[str] = field(default_factory=list)
    article_h1: list[str] = field(default_factory=list)
    og_title: str = ""
    ld_headline: str = ""
    title: str = ""
    canonical: str = ""
    author: str = ""
    site_names: list[str] = field(default_factory=list)
    ld_published: str = ""
    meta_published: str = ""
    link_texts: set[str] = field(default_factory=set)
    paragraph_chars: int = 0
    # Time zones the page's own timestamps are written in (not UTC): "-05:00".
    zones: list[str] = field(default_factory=list)
    # The article's own headline element, else the first: where its date line is looked for.
    headline_element: HtmlElement | None = field(default=None, repr=False, compare=False)


def _headline_parts(node: HtmlElement, parts: list[str]) -> None:
    for child in node:
        element = isinstance(child.tag, str)  # not a comment
        marked = not element or _NOT_HEADLINE.search(
            f"{child.get('class')} {child.get('itemprop')}")
        gap = " " if child.tag in _BLOCKS else ""
        if not marked:
            parts.append(gap + (child.text or ""))
            _headline_parts(child, parts)
        parts.append(gap + (child.tail or ""))


def headline_text(h1: HtmlElement) -> str:
    """The text of a headline element as the page shows it, without the parts it marks as
    no headline (a kicker set apart by its class, screen-reader text), lines kept apart."""
    if not len(h1):
        return normalise(h1.text_content())
    parts = [h1.text or ""]
    _headline_parts(h1, parts)
    return normalise("".join(parts))


def _types(obj: dict[str, Any]) -> set[str]:
    kind = obj.get("@type", [])
    return set(kind) if isinstance(kind, list) else {str(kind)}


def _ld_objects(value: Any) -> Iterator[dict[str, Any]]:
    """Top-level JSON-LD objects and those of a @graph (nested objects are other things'
    dates: a video's, an author's, a related article's)."""
    if isinstance(value, list):
        for item in value:
            yield from _ld_objects(item)
    elif isinstance(value, dict):
        yield value
        if "@graph" in value:
            yield from _ld_objects(value["@graph"])


def _text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("name", "")
    if isinstance(value, list):
        value = value[0] if value else ""
    return normalise(unescape(str(value))) if isinstance(value, str | int | float) else ""


def _read_json_ld(tree: HtmlElement, meta: PageMeta) -> None:
    for script in tree.xpath('//script[@type="application/ld+json"]/text()'):
        try:
            loaded = json.loads(script)
        except ValueError:
            continue
        for obj in _ld_objects(loaded):
            types = _types(obj)
            if types & {"WebSite", "Organization", "NewsMediaOrganization"} and obj.get("name"):
                meta.site_names.append(_text(obj["name"]))
            if not types & ARTICLE_TYPES:
                continue
            meta.ld_headline = meta.ld_headline or _text(obj.get("headline", ""))
            meta.ld_published = meta.ld_published or _text(obj.get("datePublished", ""))
            meta.zones += filter(None, (time_zone(_text(obj.get(key, "")))
                                        for key in ("datePublished", "dateModified")))
            meta.author = meta.author or _text(obj.get("author", ""))
            if publisher := _text(obj.get("publisher", "")):
                meta.site_names.append(publisher)


def _is_date_element(node: HtmlElement) -> bool:
    return node.tag == "time" or _DATE_ATTRIBUTE.search(
        f"{node.get('class')} {node.get('id')} {node.get('itemprop')}") is not None


def _following(anchor: HtmlElement) -> Iterator[HtmlElement]:
    """The elements after an element in page order, up to the end of its DATE_LEVELS-th
    ancestor (or of <body>)."""
    node = anchor
    for _ in range(DATE_LEVELS):
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()
        if node is None or node.tag == "body":
            return


def date_lines(anchor: HtmlElement | None) -> list[str]:
    """The short texts of the date-like elements after the page's headline element
    (PageMeta.headline_element) and near it (the next DATE_SCAN elements under its
    DATE_LEVELS-th ancestor), in page order: where a byline or dateline states the day."""
    found: list[str] = []
    for node in islice(_following(anchor), DATE_SCAN) if anchor is not None else ():
        if _is_date_element(node):
            text = normalise(node.text_content())
            if 0 < len(text) <= DATE_LINE_CHARS and text not in found:
                found.append(text)
                if len(found) == DATE_LINES:
                    break
    return found


def line_stamps(anchor: HtmlElement | None) -> list[str]:
    """The machine-readable timestamps (`datetime`) of the <time> elements after the page's
    headline element and near it, as date_lines finds them, leaving out those that date an
    update (by their text, class or itemprop)."""
    found: list[str] = []
    for node in islice(_following(anchor), DATE_SCAN) if anchor is not None else ():
        stamp = (node.get("datetime") or "").strip() if node.tag == "time" else ""
        if stamp and stamp not in found and not is_update(
                f"{node.text_content()} {node.get('class')} {node.get('itemprop')}"):
            found.append(stamp)
    return found


def read_page_meta(tree: HtmlElement) -> PageMeta:
    """The page's self-description, read before an extractor changes the tree."""
    meta = PageMeta()
    marked = [node for node in _MARKED(tree) if node.tag != "meta"]
    headlines = [(node, text) for node in marked
                 if (node.tag == "h1" or node.get("itemprop") == "headline")
                 and (text := headline_text(node))]
    own = [(node, text) for node, text in headlines if node.get("itemprop") == "headline"
           or any(True for _ in node.iterancestors("article"))]
    meta.h1 = [text for _, text in headlines]
    meta.article_h1 = [text for _, text in own]
    meta.headline_element = next(iter(own or headlines), (None, ""))[0]
    meta.title = normalise(tree.findtext(".//title") or "")
    meta.canonical = next(iter(tree.xpath("//link[@rel='canonical']/@href")), "").strip()
    for node in tree.iter("meta"):
        key = node.get("property") or node.get("name") or node.get("itemprop") or ""
        content = normalise(node.get("content") or "")
        if not content:
            continue
        if key == "og:title" and not meta.og_title:
            meta.og_title = content
        elif key in ("author", "article:author") and not meta.author:
            meta.author = content
        elif key in ("og:site_name", "application-name"):
            meta.site_names.append(content)
        elif key in PUBLISHED_META and not meta.meta_published:
            meta.meta_published = content
        if zone := time_zone(content):
            meta.zones.append(zone)
    _read_json_ld(tree, meta)
    if meta.author.startswith(("http://", "https://")):
        meta.author = ""
    meta.author = meta.author or next(
        (text for node in marked if "author" in (node.get("rel"), node.get("itemprop"))
         and 0 < len(text := normalise(node.text_content())) <= 80), "")
    meta.author = _BYLINE.sub("", meta.author)
    meta.link_texts = {text for a in tree.iter("a") if (text := normalise(a.text_content()))}
    meta.paragraph_chars = sum(len(p.text_content()) for p in tree.iter("p"))
    return meta
