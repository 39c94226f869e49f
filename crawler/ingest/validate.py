"""A raw archive record checked and turned into an Article, or the reason it is bad."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit

from parawire.crawler.extraction import canonical_url
from parawire.crawler.ingest.mapping import FieldMap, pick
from parawire.crawler.topics import assign_topic
from parawire.records import Article
from parawire.textnorm import content_hash


class BadRecord(ValueError):
    """Why a record cannot become an article (one line, naming the key)."""


@dataclass(frozen=True, slots=True)
class RecordRules:
    """What a record needs: the field map, the language of records naming none, the
    shortest text kept, and the topic keyword groups per language."""

    fields: FieldMap
    language: str
    min_text_chars: int
    topics: dict[str, dict[str, list[str]]]


def to_article(record: dict[str, Any], rules: RecordRules) -> Article:
    """The article a record holds; BadRecord names the first problem."""
    url = _text(record, rules.fields, "url", required=True)
    scheme = urlsplit(url)
    if scheme.scheme not in ("http", "https") or not scheme.hostname:
        raise BadRecord(f"url {url[:80]!r} is not an http(s) URL")
    text = _text(record, rules.fields, "text", required=True)
    if len(text.strip()) < rules.min_text_chars:
        raise BadRecord(f"text has {len(text.strip())} characters, fewer than "
                        f"crawl.min_text_chars = {rules.min_text_chars}")
    title = _text(record, rules.fields, "title")
    language = _text(record, rules.fields, "language") or rules.language
    source = _text(record, rules.fields, "source") or scheme.hostname.removeprefix("www.")
    topic = _text(record, rules.fields, "topic") or assign_topic(
        title, text, rules.topics.get(language, {}))
    return Article(
        url=url, canonical_url=canonical_url(url), source=source, language=language,
        title=title, text=text, published=_day(record, rules.fields), topic=topic,
        author=_text(record, rules.fields, "author"),
        crawled_at=datetime.now(UTC).replace(tzinfo=None), content_hash=content_hash(text))


def _text(record: dict[str, Any], fields: FieldMap, name: str, required: bool = False) -> str:
    key, value = pick(record, fields[name])
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = ", ".join(value)  # news-please's authors
    if value is not None and not isinstance(value, str):
        raise BadRecord(f"{name} ({key!r}) is {type(value).__name__}, not text")
    if required and not (value or "").strip():
        keys = " or ".join(repr(k) for k in fields[name]) or "no key (map it with --field)"
        raise BadRecord(f"no {name}: {keys} missing or empty")
    return (value or "").strip()


def _day(record: dict[str, Any], fields: FieldMap) -> date | None:
    """The publication day from an ISO date or date-time (its first ten characters)."""
    key, value = pick(record, fields["published"])
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise BadRecord(f"published ({key!r}) is {type(value).__name__}, not an ISO date")
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        raise BadRecord(f"published ({key!r}) {value[:40]!r} is not an ISO date") from None
