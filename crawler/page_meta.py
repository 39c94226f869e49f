"""What a page says about itself: headline candidates, site-name hints, the article's own
dates (JSON-LD, <meta>), and the text of its links; read from the parsed page once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from lxml.html import HtmlElement

from parawire.crawler.typography import normalise

# JSON-LD types whose datePublished and headline are the article's own.
ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle",
    "OpinionNewsArticle", "BackgroundNewsArticle", "ReviewNewsArticle", "BlogPosting",
    "LiveBlogPosting", "TechArticle", "Report", "SatiricalArticle", "ScholarlyArticle"})
_BYLINE = re.compile(r"^by\s+", re.IGNORECASE)
PUBLISHED_META = ("article:published_time", "og:article:published_time",
                  "datePublished", "pubdate", "publishdate", "date")


@dataclass(slots=True)
class PageMeta:
    """Headline candidates by where they were found (`article_h1`: the <h1>s inside an
    <article> or marked as the headline), site names, dates, link texts."""

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
            meta.author = meta.author or _text(obj.get("author", ""))
            if publisher := _text(obj.get("publisher", "")):
                meta.site_names.append(publisher)


def read_page_meta(tree: HtmlElement) -> PageMeta:
    """The page's self-description, read before an extractor changes the tree."""
    meta = PageMeta()
    meta.h1 = [text for h1 in tree.iter("h1") if (text := normalise(h1.text_content()))]
    meta.article_h1 = [text for h1 in tree.xpath("//article//h1|//h1[@itemprop='headline']")
                       if (text := normalise(h1.text_content()))]
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
    _read_json_ld(tree, meta)
    if meta.author.startswith(("http://", "https://")):
        meta.author = ""
    meta.author = meta.author or next(
        (text for node in tree.xpath("//*[@rel='author' or @itemprop='author']")
         if 0 < len(text := normalise(node.text_content())) <= 80), "")
    meta.author = _BYLINE.sub("", meta.author)
    meta.link_texts = {text for a in tree.iter("a") if (text := normalise(a.text_content()))}
    meta.paragraph_chars = sum(len(p.text_content()) for p in tree.iter("p"))
    return meta
