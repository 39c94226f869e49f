"""Articles for the stories benches: NeuS stories on made-up days, ECB+, the AllSides archive,
stored in a fresh SQLite store as the stories stage reads them."""

from __future__ import annotations

import gzip
import json
import random
import tempfile
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple

from common import SHARED_DATA

from parawire.config import Settings, load_settings
from parawire.records import Article
from parawire.store import store_of
from parawire.textnorm import content_hash

FIRST_DAY = date(2020, 1, 1)


class Labelled(NamedTuple):
    """An article with its true story (and coarser truth where the data set has one)."""

    article: Article
    truth: str
    coarse: str


def neus(split: str, stories_per_day: int, seed: int = 0) -> list[Labelled]:
    """NeuS stories of one split, shuffled (seeded) and laid on days, `stories_per_day` a
    day; each article on its story's day, or (one in four) the day after."""
    rng = random.Random(seed)
    with (SHARED_DATA / "neus" / "stories.jsonl").open() as lines:
        stories = [s for s in map(json.loads, lines) if s["split"] == split]
    rng.shuffle(stories)
    found = []
    for n, story in enumerate(stories):
        day = FIRST_DAY + timedelta(days=n // stories_per_day)
        for k, a in enumerate(story["articles"]):
            published = day + timedelta(days=1 if rng.random() < 0.25 else 0)
            found.append(Labelled(_article(f"{story['story']}/{k}", f"outlet-{k}", a["title"] or "",
                                           a["lead"] or "", published), story["story"],
                                  story["story"]))
    return found


def ecbplus() -> list[Labelled]:
    """The 921 ECB+ articles, all on one day (the data set has no dates); truth: the
    subtopic (one event), coarse: the topic (two events of one kind)."""
    with (SHARED_DATA / "ecbplus" / "articles.jsonl").open() as lines:
        return [Labelled(_article(r["id"], "ecbplus", r["title"], r["text"], FIRST_DAY),
                         r["subtopic"], str(r["topic"])) for r in map(json.loads, lines)]


def allsides() -> Iterator[Article]:
    """Every article of the AllSides archive (undated ones with no day)."""
    with gzip.open(SHARED_DATA / "allsides" / "articles.jsonl.gz", "rt", encoding="utf-8") as lines:
        for record in map(json.loads, lines):
            day = _day(record.get("date"))
            yield _article(record["id"], record["source"], record["title"] or "",
                           record["text"] or "", day)


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _article(key: str, outlet: str, title: str, text: str, day: date | None) -> Article:
    return Article(url=f"http://bench.test/{key}", source=outlet, language="en", title=title,
                   text=text, published=day, content_hash=content_hash(key + "\n" + text))


def stored(articles: list[Article], data_dir: Path | None = None, **overrides: object) -> Settings:
    """A fresh store (under a new folder) holding these articles, in one transaction."""
    settings = load_settings(data_dir=data_dir or Path(tempfile.mkdtemp(prefix="parawire-stories-")),
                             **overrides)
    store = store_of(settings)
    with store.transaction():
        for article in articles:
            store.add_article(article)
    return settings
