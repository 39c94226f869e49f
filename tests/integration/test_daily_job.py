"""The daily job (what Celery beat starts), run eagerly on the demo site twice: the first run
crawls each outlet and annotates, indexes and aligns the new days, though one more outlet
refuses connections (the job fails, naming it); the second, with that outlet back, stores
nothing and succeeds. A daily job that reaches no outlet fails at once, exit code 3."""

from __future__ import annotations

import json
from datetime import date

import pytest
from click.testing import CliRunner

from parawire.config import load_settings
from parawire.crawler.loopback import Page, loopback_settings, serve_pages
from parawire.demo import date_range, load_articles, serve_demo, sources_toml
from parawire.errors import NoOutletReached, OutletsFailed
from parawire.records import Reach
from parawire.roof.cli import main
from parawire.roof.pipeline import Pipeline, outlet_verdict
from parawire.roof.tasks import DAILY_TASK, create_app
from parawire.store import store_of
from tests.integration.test_crawl_dark_outlets import closed_port, outlet

EMPTY_FEED = Page(200, {"Content-Type": "application/rss+xml"},
                  b"<?xml version='1.0'?><rss version='2.0'><channel></channel></rss>")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    data = tmp_path_factory.mktemp("daily")
    settings = loopback_settings(load_settings(data_dir=data))
    _, last = date_range()
    port = closed_port()
    with serve_demo() as base, serve_pages(lambda _: {"/feed.xml": EMPTY_FEED}) as back:
        sources = data / "sources.toml"
        sources.write_text(sources_toml(base) + "\n"
                           + outlet("dark-wire", [f"http://127.0.0.1:{port}/feed.xml"]))
        settings.crawl.sources = str(sources)
        first = Pipeline(settings).daily(last.date())
        counts_after_first = store_of(settings).counts()
        sources.write_text(sources_toml(base) + "\n" + outlet("dark-wire", [f"{back}/feed.xml"]))
        second = Pipeline(settings).daily(last.date())
    return settings, first, counts_after_first, second, port


def test_first_run_crawls_each_outlet_and_mines_the_new_days(two_runs):
    settings, first, counts, _, _ = two_runs
    outlets = [run["outlets"] for run in first["crawl"]]
    assert outlets == [["harbor-gazette"], ["metro-bulletin"], ["valley-courier"],
                       ["coastline-wire"], ["civic-ledger"], ["dark-wire"]]
    _, last = date_range()
    expected = sum(1 for a in load_articles() if 0 <= (last.date() - a.published.date()).days <= 1)
    assert sum(run.get("stored", 0) for run in first["crawl"]) == counts["articles"] == expected
    assert counts["sentences"] > expected
    assert first["align"]["references_done"] > 0
    run = store_of(settings).alignment_runs(limit=1)[0]
    assert (run.parameters["since"], run.parameters["until"]) == ("2026-03-08", "2026-03-09")


def test_first_run_fails_naming_the_outlet_it_could_not_reach(two_runs):
    _, first, _, _, port = two_runs
    dark = first["crawl"][-1]
    assert (dark["status"], dark["failed_outlets"]) == ("failed", ["dark-wire"])
    assert dark["reason"] == f"dark-wire: 127.0.0.1:{port} refused the connection"
    assert all(run["status"] == "finished" and not run["partial"] for run in first["crawl"][:-1])
    failure = outlet_verdict(first["crawl"])
    assert isinstance(failure, OutletsFailed) and not isinstance(failure, NoOutletReached)
    assert "(dark-wire)" in str(failure)


def test_second_run_of_the_same_day_stores_nothing(two_runs):
    settings, first, counts, second, _ = two_runs
    assert len(second["crawl"]) == 6
    assert all(run.get("stored", 0) == 0 for run in second["crawl"])
    assert sum(run.get("skipped/known_url", 0) for run in second["crawl"]) >= counts["articles"]
    assert store_of(settings).counts() == {**counts, "crawl_runs": 12}
    assert second["align"]["pairs"] == first["align"]["pairs"]
    assert len(store_of(settings).alignment_runs()) == 1


def test_the_outlet_back_the_next_day_is_ok_again(two_runs):
    settings, _, _, second, _ = two_runs
    assert outlet_verdict(second["crawl"]) is None
    assert second["crawl"][-1]["reason"].startswith("quiet day: 1 listing(s)")
    health = store_of(settings).outlet_health()["dark-wire"]
    assert (health.state, health.failed_days) == (Reach.OK, 0)
    assert health.last_success is not None and "refused the connection" in health.last_error


def test_a_daily_job_that_reaches_no_outlet_fails_with_exit_code_3(tmp_path):
    sources = tmp_path / "sources.toml"
    sources.write_text(outlet("refusing", [f"http://127.0.0.1:{closed_port()}/feed.xml"])
                       + outlet("nowhere", ["http://news.parawire.invalid/feed.xml"],
                                domain="parawire.invalid"))
    (tmp_path / "parawire.toml").write_text(
        f"[crawl]\nsources = '{sources}'\nobey_robots = false\nretry_times = 0\n")
    env = {"PARAWIRE_DATA_DIR": str(tmp_path / "data")}
    result = CliRunner().invoke(main, ["--config", str(tmp_path / "parawire.toml"), "daily",
                                       "--day", "2026-11-24"], env=env)
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert [run["status"] for run in report["crawl"]] == ["failed", "failed"]
    assert report["align"] is None
    assert result.stderr.startswith("parawire: error: the crawl reached no outlet: run 1: "
                                    "refusing: 127.0.0.1:")
    settings = load_settings(tmp_path / "parawire.toml", data_dir=tmp_path / "data")
    assert store_of(settings).alignment_runs() == []  # nothing new to annotate or align

    # Celery's view (what beat started): the job's result is a failure; the next one runs.
    app = create_app(settings)
    for _ in range(2):
        result = app.tasks[DAILY_TASK].apply(args=(date(2026, 11, 24).isoformat(),),
                                             throw=False)
        assert result.failed() and isinstance(result.result, NoOutletReached)
    assert store_of(settings).outlet_health()["refusing"].failed_days == 1
    assert len(store_of(settings).crawl_runs()) == 6
