"""Main text, title, author and date of an article page (trafilatura)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import trafilatura

TRACKING_PREFIXES = ("utm_", "fbclid", "gclid", "mc_", "ref", "cmpid", "ocid")


@dataclass(slots=True)
class Extracted:
    """What the extractor found on a page."""

    title: str
    text: str
    author: str
    published: date | None


def canonical_url(url: str) -> str:
    """The URL without fragment and tracking parameters."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not k.lower().startswith(TRACKING_PREFIXES)]
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", urlencode(query), ""))


def extract(html: str, url: str, today: date) -> Extracted | None:
    """The article on a page, or None when trafilatura finds no main text."""
    doc = trafilatura.bare_extraction(
        html, url=url, with_metadata=True, include_comments=False, include_tables=False,
        date_extraction_params={"extensive_search": False, "original_date": True,
                                "max_date": today.isoformat()},
    )
    if doc is None or not doc.text:
        return None
    title = (doc.title or "").strip()
    lines = [line.strip() for line in doc.text.splitlines() if line.strip()]
    if lines and title and lines[0] == title:
        lines = lines[1:]
    published = None
    if doc.date:
        try:
            published = date.fromisoformat(doc.date[:10])
        except ValueError:
            published = None
    if published is not None and published > today:
        published = None
    return Extracted(title=title, text="\n".join(lines), author=(doc.author or "").strip(),
                     published=published)
