"""Helpers shared by the benchmarks: an annotated store and index built from plain texts."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from parawire import pipeline
from parawire.config import Settings, load_settings
from parawire.records import Article, Sentence
from parawire.stages import store_of
from parawire.store.schema import articles
from parawire.textnorm import content_hash

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RESULTS = Path(__file__).with_name("results")


def build_corpus(documents: Iterable[tuple[str, str, str, date | None]],
                 **overrides: Any) -> tuple[Settings, dict[str, list[Sentence]]]:
    """Store, annotate and index (url, source, text, day) documents in a fresh data dir;
    returns the settings and each document's sentences by url."""
    settings = load_settings(data_dir=Path(tempfile.mkdtemp(prefix="parawire-bench-")),
                             **overrides)
    store = store_of(settings)
    for url, source, text, day in documents:
        store.add_article(Article(url=url, source=source, language="en", title="", text=text,
                                  published=day, topic="news", content_hash=content_hash(text)))
    pipeline.annotate(settings)
    pipeline.index(settings)
    by_article: dict[int, list[Sentence]] = {}
    for batch in store.iter_sentences():
        for sentence in batch:
            by_article.setdefault(sentence.article_id, []).append(sentence)
    with store.engine.connect() as conn:
        urls = {row.id: row.url for row in conn.execute(articles.select())}
    return settings, {urls[aid]: sentences for aid, sentences in by_article.items()}


def report(name: str, result: dict[str, Any]) -> None:
    """Print a bench result as JSON and keep it under bench/results/."""
    RESULTS.mkdir(exist_ok=True)
    text = json.dumps(result, indent=2)
    (RESULTS / f"{name}.json").write_text(text + "\n")
    print(text)
