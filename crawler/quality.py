"""Extraction quality: saved article pages served on 127.0.0.1, crawled through the spider,
and the stored body text scored against the expected text by token precision and recall."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from html import escape
from pathlib import Path
from urllib.parse import quote, urlsplit

import trafilatura
from rapidfuzz import fuzz
from trafilatura.utils import load_html

from parawire.config import Settings
from parawire.crawler.body import HEADLINE_LIKE, HEADLINE_LINES
from parawire.crawler.extraction import extract, site_label
from parawire.crawler.headline import SEPARATOR, is_site_name
from parawire.crawler.language import detect_language
from parawire.crawler.loopback import Page, loopback_settings, serve_pages
from parawire.crawler.page_meta import read_page_meta
from parawire.crawler.runner import run_crawl
from parawire.crawler.scope import CrawlScope
from parawire.crawler.title_quality import (
    TitleScores,
    TitleTruth,
    changed_lines,
    misses,
    page_characters,
)
from parawire.records import Article
from parawire.store import store_of

OUTLET = "saved-pages"
# The fixed split of the saved pages by domain: extraction choices are tuned on TUNE only,
# CHECK is held out and scored (with TUNE) by the quality test and bench.
TUNE, CHECK = "tune", "check"
HTML = "text/html; charset=utf-8"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class SavedPage:
    """One saved article page and the body text it should yield."""

    key: str
    url: str  # where the page was saved from
    html: bytes
    expected: str

    @property
    def domain(self) -> str:
        """The publisher's host name, without "www."."""
        return urlsplit(self.url).netloc.lower().removeprefix("www.")

    @property
    def half(self) -> str:
        """TUNE or CHECK: the parity of the first byte of the SHA-256 of the domain, so that
        every page of a publisher is in the same half (80 tuning pages, 101 check pages)."""
        return TUNE if hashlib.sha256(self.domain.encode()).digest()[0] % 2 == 0 else CHECK

    @property
    def path(self) -> str:
        """Its path on the loopback server: a short key, then the original URL's path, so
        that dates in the original URL are still there to be found."""
        return f"/{self.key[:12]}{quote(urlsplit(self.url).path or '/', safe='/-._~')}"


def load_saved_pages(folder: Path) -> list[SavedPage]:
    """Pages of a folder holding html/<key>.html.gz and ground-truth.json (key →
    {"url", "articleBody"}), in key order."""
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    return [SavedPage(key, entry["url"], gzip.decompress(
                (folder / "html" / f"{key}.html.gz").read_bytes()), entry["articleBody"])
            for key, entry in sorted(truth.items())]


def by_language(pages: Iterable[SavedPage]) -> dict[str, list[SavedPage]]:
    """The pages grouped by the language of their expected text, as an operator would list
    outlets by the language they publish in."""
    groups: dict[str, list[SavedPage]] = {}
    for page in pages:
        groups.setdefault(detect_language(page.expected), []).append(page)
    return dict(sorted(groups.items()))


def mirror_site(groups: dict[str, list[SavedPage]]) -> Callable[[str], dict[str, Page]]:
    """A loopback site serving the pages and, per language, a section page
    (/index-<language>.html) linking each page in that language."""

    def build(base: str) -> dict[str, Page]:
        served: dict[str, Page] = {}
        for language, pages in groups.items():
            links = "".join(f'<li><a href="{escape(page.path)}">{page.key}</a></li>'
                            for page in pages)
            served[f"/index-{language}.html"] = Page(
                200, {"Content-Type": HTML}, f"<html><body><ul>{links}</ul></body></html>".encode())
            served.update({page.path: Page(200, {"Content-Type": HTML}, page.html)
                           for page in pages})
        return served

    return build


def sources_toml(base: str, languages: Iterable[str]) -> str:
    """A sources file with one outlet per language, each listing its pages on a section page."""
    return "".join(
        f'[[outlet]]\nname = "{OUTLET}-{language}"\nlanguage = "{language}"\n'
        f'domains = ["127.0.0.1"]\n[[outlet.sections]]\nurl = "{base}/index-{language}.html"\n'
        f"article_pattern = '^{re.escape(base)}/[0-9a-f]{{12}}/'\n\n" for language in languages)


@dataclass(frozen=True, slots=True)
class Overlap:
    """Tokens shared by the extracted and the expected text, and each one's token count."""

    common: int
    extracted: int
    expected: int

    @property
    def precision(self) -> float:
        """Share of extracted tokens that are expected (nothing extracted: 0, unless nothing
        was expected either)."""
        if not self.extracted:
            return 0.0 if self.expected else 1.0
        return self.common / self.extracted

    @property
    def recall(self) -> float:
        """Share of expected tokens that were extracted."""
        return self.common / self.expected if self.expected else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0


def tokens(text: str) -> Counter[str]:
    """Lower-cased word tokens of a text, with their counts."""
    return Counter(_WORD.findall(text.lower()))


def overlap(extracted: str, expected: str) -> Overlap:
    """Token overlap of an extracted text with the expected one (tokens as multisets)."""
    got, want = tokens(extracted), tokens(expected)
    return Overlap(sum((got & want).values()), sum(got.values()), sum(want.values()))


def summarise(overlaps: list[Overlap]) -> dict[str, float]:
    """Mean precision, recall and F1 per page, and micro figures over all tokens."""
    n = len(overlaps) or 1
    total = Overlap(sum(o.common for o in overlaps), sum(o.extracted for o in overlaps),
                    sum(o.expected for o in overlaps))
    figures = {"precision": sum(o.precision for o in overlaps) / n,
               "recall": sum(o.recall for o in overlaps) / n,
               "f1": sum(o.f1 for o in overlaps) / n,
               "micro_precision": total.precision, "micro_recall": total.recall,
               "micro_f1": total.f1}
    return {"pages": len(overlaps), **{key: round(value, 4) for key, value in figures.items()}}


def crawl_and_score(settings: Settings, pages: list[SavedPage],
                    since: date = date(1995, 1, 1), until: date | None = None) -> dict:
    """Serve the pages on 127.0.0.1, crawl them (all topics kept) into the settings' store,
    and score each stored body text; pages the crawl did not store score as empty text.

    The pages are listed under one outlet per language of their expected text. Returns the
    crawl's counts, the scores over all pages and over the stored ones, the pages scored
    lowest, and the stored articles by path (`stored`: for titles_by_half).
    """
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    sources = settings.data_dir / "saved-pages-sources.toml"
    groups = by_language(pages)
    with serve_pages(mirror_site(groups)) as base:
        sources.write_text(sources_toml(base, groups), encoding="utf-8")
        scope = CrawlScope(since=since, until=until, sources=str(sources), all_topics=True)
        counts = run_crawl(loopback_settings(settings), scope)
        articles = {urlsplit(a.url).path: a for batch in
                    store_of(settings).articles_to_annotate() for a in batch
                    if a.source.startswith(OUTLET)}
    stored = {path: article.text for path, article in articles.items()}
    scored = {page.path: overlap(stored.get(page.path, ""), page.expected) for page in pages}
    worst = sorted(scored.items(), key=lambda item: item[1].f1)[:5]
    return {"counts": counts,
            "all_pages": summarise(list(scored.values())),
            "stored_pages": summarise([o for path, o in scored.items() if path in stored]),
            "halves": by_half(pages, scored, stored),
            "stored": articles,
            "lowest_f1": [{"path": path, "f1": round(o.f1, 3), "precision": round(o.precision, 3),
                           "recall": round(o.recall, 3)} for path, o in worst]}


def plain_trafilatura(page: SavedPage) -> str:
    """The body text plain trafilatura finds on a page, with its defaults: the baseline."""
    return trafilatura.extract(page.html.decode("utf-8", "replace"), url=page.url) or ""


def by_half(pages: list[SavedPage], scored: dict[str, Overlap],
            stored: Collection[str]) -> dict[str, dict]:
    """For each half (TUNE, CHECK): parawire's scores (`scored`, by path) and plain
    trafilatura's on the same pages, over all the half's pages (a page the crawl skipped,
    e.g. for having no date, scores 0 for parawire only) and over those the crawl stored."""
    halves: dict[str, dict] = {}
    for half in (TUNE, CHECK):
        mine = [page for page in pages if page.half == half]
        plain = {page.path: overlap(plain_trafilatura(page), page.expected) for page in mine}
        kept = [page.path for page in mine if page.path in stored]
        halves[half] = {
            "parawire": summarise([scored[page.path] for page in mine]),
            "trafilatura": summarise([plain[page.path] for page in mine]),
            "stored_pages": {"parawire": summarise([scored[path] for path in kept]),
                             "trafilatura": summarise([plain[path] for path in kept])}}
    return halves


def plain_trafilatura_meta(page: SavedPage) -> tuple[str, str, date | None]:
    """The title, body text and date plain trafilatura finds on a page (bare_extraction
    with its metadata): the headline and date baseline."""
    doc = trafilatura.bare_extraction(page.html.decode("utf-8", "replace"), url=page.url,
                                      with_metadata=True)
    if doc is None:
        return "", "", None
    return doc.title or "", doc.text or "", date.fromisoformat(doc.date[:10]) if doc.date else None


def titles_by_half(pages: list[SavedPage], stored: dict[str, Article],
                   truth: dict[str, TitleTruth]) -> dict[str, dict]:
    """For each half (TUNE, CHECK): headline and date figures of the stored articles (a page
    not stored has no headline and no date) and of plain trafilatura on the same pages, the
    pages whose stored title or text the page does not hold as it is, and the misses by
    kind."""
    halves: dict[str, dict] = {}
    for half in (TUNE, CHECK):
        ours, plain = TitleScores(), TitleScores()
        found: dict[str, list] = {"parawire": [], "trafilatura": []}
        changed: list[dict[str, str]] = []
        for page in (page for page in pages if page.half == half and page.key in truth):
            article, want = stored.get(page.path), truth[page.key]
            title, text, day = (article.title, article.text, article.published) if article \
                else ("", "", None)
            characters = page_characters(load_html(page.html.decode("utf-8", "replace")))
            lines = changed_lines(title, text, characters)
            changed += [{"page": page.key[:12], "line": line[:200]} for line in lines]
            ours.add(title, day, want, bool(lines))
            found["parawire"].append((page.key, title, day, want))
            plain_title, plain_text, plain_day = plain_trafilatura_meta(page)
            plain.add(plain_title, plain_day, want,
                      bool(changed_lines(plain_title, plain_text, characters)))
            found["trafilatura"].append((page.key, plain_title, plain_day, want))
        halves[half] = {"parawire": ours.figures(), "trafilatura": plain.figures(),
                        "changed_lines": changed,
                        "misses": {name: misses(rows) for name, rows in found.items()}}
    return halves


# Characters that stored text should not keep: no-break and zero-width spaces (the
# publisher's quotes and dashes are kept).
_ODD_TYPOGRAPHY = re.compile("[\u00a0\u200b\u200c\u200d\u2060\ufeff]")


def _kinds(title: str, text: str, published: date | None, page: SavedPage,
           hints: list[str]) -> Counter[str]:
    """The failure kinds one extraction shows (those that need no expected title or date)."""
    lines = text.splitlines()
    tail = SEPARATOR.split(title)[-1] if SEPARATOR.search(title) else ""
    found = Counter({
        "body_lost (F1 < 0.5)": overlap(text, page.expected).f1 < 0.5,
        "title_keeps_site_name": bool(tail) and is_site_name(tail, hints),
        "headline_repeated_in_body": bool(title) and any(
            fuzz.ratio(line.casefold(), title.casefold()) >= HEADLINE_LIKE
            for line in lines[:HEADLINE_LINES]),
        "odd_typography": bool(_ODD_TYPOGRAPHY.search(title + text)),
        "no_date": published is None,
    })
    return +found


def failure_kinds(pages: list[SavedPage], today: date) -> dict[str, dict[str, dict[str, int]]]:
    """Per half, how many pages show each failure kind with parawire's extraction and with
    plain trafilatura's (bare_extraction with its metadata): kinds that need no expected title
    or date (a title ending in the site's name per og:site_name, JSON-LD or the host; a
    body line repeating the headline; no-break spaces or zero-width characters; no date)."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for half in (TUNE, CHECK):
        ours: Counter[str] = Counter()
        plain: Counter[str] = Counter()
        for page in (page for page in pages if page.half == half):
            html = page.html.decode("utf-8", "replace")
            meta = read_page_meta(load_html(html))
            hints = [*meta.site_names, site_label(page.url)]
            found = extract(html, page.url, today)
            if found is not None:
                ours += _kinds(found.title, found.text, found.published, page, hints)
            doc = trafilatura.bare_extraction(html, url=page.url, with_metadata=True)
            day = date.fromisoformat(doc.date[:10]) if doc is not None and doc.date else None
            if doc is not None:
                plain += _kinds(doc.title or "", doc.text or "", day, page, hints)
        table[half] = {"pages": {"parawire": sum(p.half == half for p in pages)},
                       **{kind: {"parawire": ours[kind], "trafilatura": plain[kind]}
                          for kind in sorted(ours | plain)}}
    return table
