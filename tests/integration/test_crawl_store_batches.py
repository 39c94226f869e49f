"""The crawler's writes, on SQLite and on a real PostgreSQL: articles stored in one
transaction per batch (deduplicated within the batch too), and the per-outlet statistics."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from parawire.crawler.dedup import store_articles
from parawire.records import Article, ArticleOutcome, OutletStats
from parawire.textnorm import content_hash


def article(url: str, text: str) -> Article:
    return Article(url=url, source="gazette", language="en", title="t", text=text,
                   published=date(2026, 3, 3), topic="sports", content_hash=content_hash(text))


def test_a_batch_is_one_transaction_deduplicated_within(store):
    story = "The harbour council approved the budget after a long debate. " * 5
    outcomes = store_articles(store, [
        article("http://n.test/a", story), article("http://n.test/a", story + " Again."),
        article("http://n.test/b", story), article("http://n.test/c", story + " Updated.")])
    assert outcomes == [ArticleOutcome.STORED, ArticleOutcome.DUPLICATE_URL,
                        ArticleOutcome.DUPLICATE_CONTENT, ArticleOutcome.NEAR_DUPLICATE]
    assert store.known_urls() == {"http://n.test/a", "http://n.test/c"}
    # A batch that fails leaves nothing of it behind.
    with pytest.raises(AttributeError):
        store_articles(store, [article("http://n.test/d", "Other words " * 20), None])
    assert "http://n.test/d" not in store.known_urls()


def test_outlet_statistics_add_up(store):
    assert store.outlet_stats("n.test") == OutletStats()
    store.add_outlet_stats({"n.test": OutletStats(2, Counter({"o1": 2}), Counter({" | N": 2})),
                            "m.test": OutletStats(1, Counter(), Counter())})
    store.add_outlet_stats({"n.test": OutletStats(1, Counter({"o1": 1, "s2": 2}), Counter())})
    assert store.outlet_stats("n.test") == OutletStats(
        3, Counter({"o1": 3, "s2": 2}), Counter({" | N": 2}))
    assert store.outlet_stats("m.test").pages == 1
