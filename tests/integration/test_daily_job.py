"""The daily job (what Celery beat starts), run eagerly on the demo site twice: the first run
crawls each outlet and annotates, indexes and aligns the new days; the second stores nothing."""

from __future__ import annotations

import pytest

from parawire.config import load_settings
from parawire.crawler.loopback import loopback_settings
from parawire.demo import date_range, load_articles, serve_demo, sources_toml
from parawire.roof.pipeline import Pipeline
from parawire.store import store_of


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    data = tmp_path_factory.mktemp("daily")
    settings = loopback_settings(load_settings(data_dir=data))
    _, last = date_range()
    with serve_demo() as base:
        sources = data / "sources.toml"
        sources.write_text(sources_toml(base))
        settings.crawl.sources = str(sources)
        first = Pipeline(settings).daily(last.date())
        counts_after_first = store_of(settings).counts()
        second = Pipeline(settings).daily(last.date())
    return settings, first, counts_after_first, second


def test_first_run_crawls_each_outlet_and_mines_the_new_days(two_runs):
    settings, first, counts, _ = two_runs
    outlets = [run["outlets"] for run in first["crawl"]]
    assert outlets == [["harbor-gazette"], ["metro-bulletin"], ["valley-courier"],
                       ["coastline-wire"], ["civic-ledger"]]
    _, last = date_range()
    expected = sum(1 for a in load_articles() if 0 <= (last.date() - a.published.date()).days <= 1)
    assert sum(run.get("stored", 0) for run in first["crawl"]) == counts["articles"] == expected
    assert counts["sentences"] > expected
    assert first["align"]["references_done"] > 0
    run = store_of(settings).alignment_runs(limit=1)[0]
    assert (run.parameters["since"], run.parameters["until"]) == ("2026-03-08", "2026-03-09")


def test_second_run_of_the_same_day_stores_nothing(two_runs):
    settings, first, counts, second = two_runs
    assert len(second["crawl"]) == 5
    assert all(run.get("stored", 0) == 0 for run in second["crawl"])
    assert sum(run["skipped/known_url"] for run in second["crawl"]) >= counts["articles"]
    assert store_of(settings).counts() == {**counts, "crawl_runs": 10}
    assert second["align"]["pairs"] == first["align"]["pairs"]
    assert len(store_of(settings).alignment_runs()) == 1
