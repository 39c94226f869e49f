"""MEANTIME's Wikinews articles served as a news site in one language (three outlets).

Deterministic assignment: the articles, in the order of their MEANTIME ids, go to the
outlets in turn (k-th article → outlet k mod 3), so the outlets differ in layout, date
markup and feed kind; each article is dated by its English version's date line ("March 01,
2008", the same event day in every language), published at 12:00 UTC; its sentences after
the date line become paragraphs of up to three sentences.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from parawire.demo.site import DemoArticle

SENTENCES_PER_PARAGRAPH = 3
_STYLES = (("meta", "rss", "#264653"), ("jsonld", "rss", "#e76f51"), ("time", "atom", "#6a4c93"))


def meantime_outlets(language: str) -> list[dict]:
    """The three outlets of one language's site."""
    return [{"slug": f"wikinews-{language}-{k + 1}", "title": f"Wikinews {language} {k + 1}",
             "tagline": "MEANTIME (CC BY 4.0)", "sections": ["News"], "date_markup": markup,
             "feed": feed, "color": color}
            for k, (markup, feed, color) in enumerate(_STYLES)]


def _read(folder: Path, language: str) -> list[dict]:
    path = folder / f"{language}.jsonl"
    with path.open(encoding="utf-8") as handle:
        return sorted((json.loads(line) for line in handle if line.strip()), key=lambda r: r["id"])


def load_meantime(folder: Path, language: str) -> list[DemoArticle]:
    """One language's MEANTIME articles (folder/<language>.jsonl), with outlets and dates
    assigned as the module says."""
    days = {row["id"]: datetime.strptime(row["sentences"][0], "%B %d, %Y").replace(hour=12)
            for row in _read(folder, "en")}
    outlets = meantime_outlets(language)
    articles = []
    for k, row in enumerate(_read(folder, language)):
        body = row["sentences"][1:]
        paragraphs = tuple(" ".join(body[i:i + SENTENCES_PER_PARAGRAPH])
                           for i in range(0, len(body), SENTENCES_PER_PARAGRAPH))
        articles.append(DemoArticle(
            outlet=outlets[k % len(outlets)]["slug"], slug=row["id"].replace("/", "-"),
            title=row["title"], author="Wikinews", published=days[row["id"]],
            paragraphs=paragraphs))
    return articles
