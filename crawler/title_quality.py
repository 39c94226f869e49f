"""Headline and date quality on saved pages with hand-read truth (titles.json): exact
headlines (and exact after typography folding), exact dates and dates within a day, the
misses by kind, and whether stored text keeps the page's characters."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from html import unescape
from pathlib import Path
from typing import Any

from lxml.html import HtmlElement

from parawire.crawler.headline import SEPARATOR
from parawire.textnorm import fold_typography

# Miss kinds of a headline (in the order they are tried) and of a date.
TYPOGRAPHY, SUFFIX, KICKER, TRUNCATION, OTHER_HEADLINE = (
    "typography", "suffix", "kicker", "truncation", "other_headline")
DATE_OFF_BY_A_DAY, DATE_OTHER, NO_DATE = "date_off_by_a_day", "date_other", "no_date"
_INVISIBLE = re.compile("[\\s\u00ad\u200b\u200c\u200d\u2060\ufeff]+")
_LIST_MARK = re.compile(r"^[-*•]\s+")


@dataclass(frozen=True, slots=True)
class TitleTruth:
    """A page's headline as it shows it (other wordings: `alternatives`) and its
    publication day (defensible others, e.g. a time zone's: `published_alternatives`)."""

    headline: str
    alternatives: tuple[str, ...]
    published: date | None
    published_alternatives: tuple[date, ...]


def load_title_truth(folder: Path) -> dict[str, TitleTruth]:
    """The truth of titles.json in a saved-pages folder, by page key."""
    loaded = json.loads((folder / "titles.json").read_text(encoding="utf-8"))
    return {key: TitleTruth(
        entry["headline"], tuple(a["text"] for a in entry.get("alternatives", [])),
        date.fromisoformat(entry["published"]) if entry.get("published") else None,
        tuple(map(date.fromisoformat, entry.get("published_alternatives", []))))
        for key, entry in loaded.items()}


def headline_miss(got: str, truth: TitleTruth) -> str | None:
    """Why a headline is not the page's (None when it is): the same words in other
    typography, the headline with a site or section suffix, with a kicker before it or
    without the one the page shows, cut short, or another headline."""
    want = truth.headline
    if got == want:
        return None
    folded, wanted = fold_typography(got).casefold(), fold_typography(want).casefold()
    if folded == wanted:
        return TYPOGRAPHY
    if folded.startswith(wanted) and SEPARATOR.match(got[len(want):] + " "):
        return SUFFIX
    if folded.endswith(wanted) or wanted.endswith(folded):
        return KICKER
    if folded and (wanted.startswith(folded.rstrip(".… ")) or folded.endswith(("…", "..."))):
        return TRUNCATION
    return OTHER_HEADLINE


def date_miss(got: date | None, truth: TitleTruth) -> str | None:
    """Why a date is not the page's (None when it is)."""
    if got == truth.published:
        return None
    if got is None:
        return NO_DATE
    if truth.published and abs((got - truth.published).days) <= 1:
        return DATE_OFF_BY_A_DAY
    return DATE_OTHER


def _squeezed(text: str) -> str:
    return _INVISIBLE.sub("", text)


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def page_characters(tree: HtmlElement) -> str:
    """All the text a page holds (text nodes, attribute values, JSON-LD strings), entities
    decoded and whitespace and invisible characters removed: what stored text is checked
    against."""
    parts = list(tree.itertext())
    parts += [value for node in tree.iter() if isinstance(node.tag, str)
              for value in node.attrib.values()]
    for script in tree.xpath('//script[@type="application/ld+json"]/text()'):
        try:
            parts += _json_strings(json.loads(script))
        except ValueError:
            continue
    return _squeezed(unescape(" ".join(parts)))


def changed_lines(title: str, text: str, characters: str) -> list[str]:
    """The stored title and body lines that the page does not hold as they are (whitespace
    and a list item's mark aside)."""
    lines = [title, *(_LIST_MARK.sub("", line) for line in text.splitlines())]
    return [line for line in lines if (squeezed := _squeezed(line))
            and squeezed not in characters]


@dataclass(slots=True)
class TitleScores:
    """Counts of one extractor on a set of pages."""

    pages: int = 0
    headline_exact: int = 0
    headline_exact_folded: int = 0
    date_exact: int = 0
    date_defensible: int = 0
    date_within_a_day: int = 0
    changed_pages: int = 0

    def add(self, title: str, published: date | None, truth: TitleTruth,
            changed: bool) -> None:
        """Count one page's headline and date against its truth."""
        self.pages += 1
        self.headline_exact += title == truth.headline
        self.headline_exact_folded += (fold_typography(title).casefold()
                                       == fold_typography(truth.headline).casefold())
        self.date_exact += published == truth.published
        self.date_defensible += published is not None and (
            published == truth.published or published in truth.published_alternatives)
        self.date_within_a_day += (published is not None and truth.published is not None
                                   and abs((published - truth.published).days) <= 1)
        self.changed_pages += changed

    def figures(self) -> dict[str, float]:
        """Shares of the pages (changed_pages: a count)."""
        n = self.pages or 1
        return {"pages": self.pages, "changed_pages": self.changed_pages,
                **{key: round(getattr(self, key) / n, 4) for key in (
                    "headline_exact", "headline_exact_folded", "date_exact",
                    "date_defensible", "date_within_a_day")}}


def misses(found: Iterable[tuple[str, str, date | None, TitleTruth]]) -> dict[str, Any]:
    """The headline and date misses of (page key, title, date, truth) by kind, and each."""
    listed = []
    for key, title, published, truth in found:
        if kind := headline_miss(title, truth):
            listed.append({"kind": kind, "page": key[:12], "got": title, "want": truth.headline})
        if kind := date_miss(published, truth):
            listed.append({"kind": kind, "page": key[:12], "got": str(published),
                           "want": str(truth.published)})
    return {"by_kind": dict(Counter(miss["kind"] for miss in listed).most_common()),
            "list": listed}
