"""Per-outlet learning: body lines that repeat across an outlet's pages are its boilerplate,
and the prefix or suffix its page titles share is its site name.

The counts start from what earlier crawls stored, grow with every page (so they help from
an outlet's second page on) and go back to the store in batches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from urllib.parse import urlsplit

from parawire.crawler.body import OTHER_KEY, SENTENCE_KEY, line_key, without_boilerplate
from parawire.crawler.extraction import Extracted, OutletHints
from parawire.crawler.headline import SEPARATOR, is_site_name
from parawire.records import OutletStats
from parawire.store import Store

# A line that comes again after this many earlier pages of the outlet is boilerplate: one
# for menu items and prompts, more for sentence-like lines (a background paragraph repeated
# in a follow-up story is prose; a subscription pitch on every page is not).
BOILERPLATE_EARLIER = {SENTENCE_KEY: 3, OTHER_KEY: 1}
# Lines seen on this many pages are stored (those seen once stay in memory).
STORED_PAGES = 2
# A title prefix/suffix seen on this many earlier pages, and on this share of them, is the
# site name.
AFFIX_PAGES = 2
AFFIX_SHARE = 0.3
# How many trailing (leading) title parts a suffix (prefix) may span: "| World | News | Express".
AFFIX_PARTS = 3
# Pages learned before the new counts go to the store.
SAVE_EVERY = 50


def outlet_key(url: str) -> str:
    """The site a page belongs to, as its statistics are kept: the URL's host without "www."
    (one configured outlet may span sites; pages of one site share their boilerplate)."""
    return urlsplit(url).netloc.lower().removeprefix("www.")


def title_affixes(title: str) -> set[str]:
    """The prefixes and suffixes of a title that may be a site name: leading and trailing
    runs of its parts with their separators (trailing dates left out)."""
    parts = SEPARATOR.split(title)
    separators = SEPARATOR.findall(title)
    while len(parts) > 1 and is_site_name(parts[-1], []):  # only dates match no name
        parts.pop()
        separators.pop()
    found: set[str] = set()
    for n in range(1, min(AFFIX_PARTS, len(parts) - 1) + 1):
        found.add("".join(p + s for p, s in zip(parts[:n], separators[:n], strict=True)))
        found.add("".join(s + p for s, p in zip(separators[-n:], parts[-n:], strict=True)))
    return found


def learn_page(stats: OutletStats, found: Extracted) -> None:
    """Count one page's body lines and title affixes into an outlet's statistics."""
    stats.pages += 1
    stats.lines.update(set(found.line_keys))
    stats.affixes.update(set().union(*map(title_affixes, found.page_titles)))


def is_boilerplate(key: str, pages: int) -> bool:
    """Whether a line seen on this many earlier pages of an outlet is boilerplate there."""
    return pages >= BOILERPLATE_EARLIER[key[0]]


def site_affixes(stats: OutletStats) -> tuple[str, ...]:
    """An outlet's site-name affixes, longest first."""
    least = max(AFFIX_PAGES, AFFIX_SHARE * stats.pages)
    return tuple(sorted((a for a, n in stats.affixes.items() if n >= least),
                        key=len, reverse=True))


def confirmed(key: str, pages: int) -> bool:
    """Whether a line is boilerplate seen on STORED_PAGES pages or more: the outlet's set of
    those stays as small as its real boilerplate, unlike that of every line seen once."""
    return pages >= STORED_PAGES and is_boilerplate(key, pages)


def hints(stats: OutletStats) -> OutletHints:
    """What extraction in a worker uses of an outlet's statistics on its next page: the keys
    of its confirmed boilerplate lines, and its site-name affixes. (Lines seen on one
    earlier page only are dropped afterwards: OutletLearning.clean.)"""
    return OutletHints(
        boilerplate=frozenset(key for key, n in stats.lines.items() if confirmed(key, n)),
        affixes=site_affixes(stats))


class OutletLearning:
    """The statistics of every outlet a crawl meets, kept up to date as its pages arrive and
    saved to the store (when there is one) every SAVE_EVERY pages and at the end."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self.known: dict[str, OutletStats] = {}
        self.unsaved: dict[str, OutletStats] = {}
        self.stored_lines: dict[str, set[str]] = {}
        # Each outlet's hints, kept in step with its statistics page by page.
        self.current: dict[str, OutletHints] = {}

    def stats(self, outlet: str) -> OutletStats:
        """An outlet's statistics so far (read from the store on first use)."""
        if outlet not in self.known:
            self.known[outlet] = self.store.outlet_stats(outlet) if self.store else OutletStats()
            self.stored_lines[outlet] = set(self.known[outlet].lines)
        return self.known[outlet]

    def hints(self, outlet: str) -> OutletHints:
        """What extraction should know of an outlet's pages now."""
        if outlet not in self.current:
            self.current[outlet] = hints(self.stats(outlet))
        return self.current[outlet]

    def clean(self, outlet: str, found: Extracted) -> Extracted:
        """The page without the lines its outlet's earlier pages make boilerplate (those a
        worker did not know of: seen on one earlier page)."""
        stats = self.stats(outlet)
        lines = found.text.split("\n")
        known = {key for line in lines if is_boilerplate(key := line_key(line), stats.lines[key])}
        return replace(found, text="\n".join(without_boilerplate(lines, known)))

    def learn(self, outlet: str, found: Extracted) -> None:
        """Count one extracted page of an outlet (its hints follow: the page's lines that
        became confirmed boilerplate join them, the affixes are counted again)."""
        stats, before = self.stats(outlet), self.hints(outlet)
        learn_page(stats, found)
        new = {key for key in found.line_keys if confirmed(key, stats.lines[key])}
        self.current[outlet] = OutletHints(before.boilerplate | new, site_affixes(stats))
        learn_page(self.unsaved.setdefault(outlet, OutletStats()), found)
        if sum(stats.pages for stats in self.unsaved.values()) >= SAVE_EVERY:
            self.save()

    def save(self) -> None:
        """Add the counts learned since the last save to the store's, in one transaction.

        Lines seen on one page only are kept in memory but not stored: the store grows with
        an outlet's repeated lines, not with every line of every article. A line stored for
        the first time is stored with all the pages it was seen on."""
        if self.store is not None and self.unsaved:
            for outlet, stats in self.unsaved.items():
                seen, stored = self.known[outlet].lines, self.stored_lines[outlet]
                stats.lines = Counter({key: n if key in stored else seen[key]
                                       for key, n in stats.lines.items()
                                       if seen[key] >= STORED_PAGES})
                stored.update(stats.lines)
            self.store.add_outlet_stats(self.unsaved)
        self.unsaved = {}
