"""Two annotate runs at once, on SQLite and on PostgreSQL: every article is stored once,
with the sentences and collocation counts of a single run."""

from __future__ import annotations

import contextlib
import threading

import pytest

from parawire.config import load_settings
from parawire.nlp import annotate_pending
from parawire.store import open_store
from tests.factories import store_demo_articles
from tests.workers import fresh_database


def _annotated(settings) -> tuple[dict, list, object]:
    store = open_store(settings.store_url)
    rows = sorted((s.article_id, s.position, s.text) for b in store.iter_sentences() for s in b)
    collocations = store.collocation_counts("en")
    store.engine.dispose()
    return store.counts(), rows, collocations


@pytest.mark.timeout(300)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_annotate_runs_at_once_store_each_article_once(tmp_path, backend, request):
    with contextlib.ExitStack() as stack:
        overrides = {}
        if backend == "postgresql":
            server = request.getfixturevalue("postgres_url")
            overrides = {"store": {"url": stack.enter_context(fresh_database(server))}}
        settings = load_settings(data_dir=tmp_path / "twice", **overrides)
        store_demo_articles(open_store(settings.store_url))
        barrier = threading.Barrier(2, timeout=120)
        outcomes: list[dict] = []

        def annotate() -> None:
            store = open_store(settings.store_url)
            barrier.wait()
            outcomes.append(annotate_pending(settings, store))
            store.engine.dispose()

        runs = [threading.Thread(target=annotate) for _ in range(2)]
        for run in runs:
            run.start()
        for run in runs:
            run.join()
        twice = _annotated(settings)

    once = load_settings(data_dir=tmp_path / "once")
    store_demo_articles(open_store(once.store_url))
    single = annotate_pending(once, open_store(once.store_url))
    counts, rows, collocations = twice
    assert len(outcomes) == 2
    assert sum(o.get("articles", 0) for o in outcomes) == single["articles"] > 0
    assert sum(o.get("sentences", 0) for o in outcomes) == single["sentences"]
    assert counts["sentences"] == single["sentences"] and len(rows) == len(set(rows))
    assert collocations == _annotated(once)[2]
