"""Celery beat's schedule and the daily workflow come from the config and the sources file."""

from __future__ import annotations

from datetime import date

from parawire.config import load_settings
from parawire.roof import tasks

SOURCES = """
[[outlet]]
name = "alpha"
language = "en"
domains = ["alpha.example"]
feeds = ["https://alpha.example/feed.xml"]

[[outlet]]
name = "beta"
language = "fr"
domains = ["beta.example"]
sitemaps = ["https://beta.example/sitemap.xml"]
"""


def test_beat_runs_the_daily_task_at_the_configured_time(monkeypatch, tmp_path):
    monkeypatch.setenv("PARAWIRE_CRAWL__DAILY_HOUR", "5")
    monkeypatch.setenv("PARAWIRE_CRAWL__DAILY_MINUTE", "30")
    app = tasks.create_app(load_settings())
    entry = app.conf.beat_schedule["daily-crawl"]
    assert entry["task"] == tasks.DAILY_TASK in app.tasks
    assert (entry["schedule"].hour, entry["schedule"].minute) == ({5}, {30})
    assert app.conf.timezone == "UTC"


def test_daily_workflow_crawls_each_outlet_then_annotates_indexes_groups_and_aligns(tmp_path):
    sources = tmp_path / "sources.toml"
    sources.write_text(SOURCES)
    settings = load_settings(data_dir=tmp_path)
    settings.crawl.sources = str(sources)
    app = tasks.create_app(settings)
    workflow = tasks.daily_workflow(app, settings, date(2026, 3, 9))
    crawls, judge = workflow.tasks, workflow.body
    assert [c.task for c in crawls] == ["parawire.crawl", "parawire.crawl"]
    assert [c.args for c in crawls] == [
        ({"since": "2026-03-08", "until": "2026-03-09", "sources": str(sources),
          "outlets": [name], "topics": [], "all_topics": False},)
        for name in ("alpha", "beta")]
    assert (judge.task, judge.args) == (tasks.CRAWLED_TASK, ("2026-03-08", "2026-03-09"))
    steps = tasks.after_crawls(app, "2026-03-08", "2026-03-09", "alpha: failed").tasks
    assert [s.task for s in steps] == ["parawire.annotate", "parawire.index", "parawire.stories",
                                       "parawire.align", tasks.DONE_TASK]
    assert steps[3].args == ({"since": "2026-03-08", "until": "2026-03-09", "language": None,
                              "topic": None},)
    assert steps[4].args == ("alpha: failed",)
