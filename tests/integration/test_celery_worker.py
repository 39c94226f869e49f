"""Stages run by a real Celery worker over redis-server, started as production starts it
(the default prefork pool), give what eager mode gives: the crawl of the demo site included."""

from __future__ import annotations

import os
from datetime import date

import pytest

from parawire.config import load_settings
from parawire.demo import date_range, serve_demo, sources_toml
from parawire.errors import ParawireError
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_demo_articles, store_synthetic_groups
from tests.workers import start_worker, stop_worker


def _pair_texts(settings, run_id):
    return sorted((row.input.text, row.target.text)
                  for row in store_of(settings).pair_rows(run_id))


@pytest.mark.within_story
@pytest.mark.timeout(300)
def test_prefork_worker_runs_stages_like_eager_mode(tmp_path, monkeypatch, redis_url):
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "worker"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/0")
    remote = load_settings()
    store_demo_articles(store_of(remote))
    with open(tmp_path / "worker.log", "w") as log:
        worker = start_worker(dict(os.environ), log)
        try:
            annotated = run_stage(remote, "annotate")
            indexed = run_stage(remote, "index")
            grouped = run_stage(remote, "stories")
            aligned = run_stage(remote, "align")
        finally:
            stop_worker(worker)
    output = (tmp_path / "worker.log").read_text()
    assert annotated["articles"] > 0, output
    assert indexed["indexed"] == store_of(remote).counts()["sentences"]
    assert grouped["articles_grouped"] == store_of(remote).counts()["articles"]
    assert aligned["pairs"] > 0

    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "eager"))
    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    eager = load_settings()
    store_demo_articles(store_of(eager))
    assert run_stage(eager, "annotate") == annotated
    run_stage(eager, "index")
    assert run_stage(eager, "stories") == grouped
    eager_run = run_stage(eager, "align")
    assert _pair_texts(eager, eager_run["run_id"]) == _pair_texts(remote, aligned["run_id"])


@pytest.mark.timeout(300)
def test_prefork_worker_crawls_the_demo_site(tmp_path, monkeypatch, redis_url):
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "worker"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/2")
    monkeypatch.setenv("PARAWIRE_CRAWL__OBEY_ROBOTS", "false")
    first, last = date_range()
    with serve_demo() as base, open(tmp_path / "worker.log", "w") as log:
        sources = tmp_path / "sources.toml"
        sources.write_text(sources_toml(base))
        worker = start_worker(dict(os.environ), log)
        try:
            remote = load_settings()
            crawled = run_stage(remote, "crawl", since=first.date(), until=last.date(),
                                sources=str(sources))
        finally:
            stop_worker(worker)
        monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "eager"))
        monkeypatch.delenv("PARAWIRE_BROKER__URL")
        eager = load_settings()
        in_process = run_stage(eager, "crawl", since=first.date(), until=last.date(),
                               sources=str(sources))
    assert crawled["stored"] == in_process["stored"] > 0, (tmp_path / "worker.log").read_text()
    (run,) = store_of(remote).crawl_runs()
    assert (run.status, run.reason) == ("finished", "")
    titles = sorted(a.title for batch in store_of(remote).articles_to_annotate() for a in batch)
    assert titles == sorted(a.title for batch in store_of(eager).articles_to_annotate()
                            for a in batch)


@pytest.mark.timeout(300)
def test_worker_writes_exports_where_the_command_ran(tmp_path, monkeypatch, redis_url):
    """A worker in another folder writes the corpus where the user ran `export`: the
    output folder, given or by default, is made absolute before the task goes out."""
    caller, elsewhere = tmp_path / "caller", tmp_path / "worker"
    caller.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(caller)
    monkeypatch.delenv("PARAWIRE_DATA_DIR", raising=False)
    monkeypatch.setenv("PARAWIRE_STORE__URL", f"sqlite:///{tmp_path / 'shared.db'}")
    eager = load_settings()
    store_demo_articles(store_of(eager))
    for name in ("annotate", "index", "align"):
        run_stage(eager, name)
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/1")
    remote = load_settings()
    with open(tmp_path / "worker.log", "w") as log:
        worker = start_worker(dict(os.environ), log, cwd=elsewhere)
        try:
            given = run_stage(remote, "export", out="corpus-x")
            default = run_stage(remote, "export", format="tsv")
        finally:
            stop_worker(worker)
    output = (tmp_path / "worker.log").read_text()
    assert given["path"] == str(caller / "corpus-x"), output
    assert (caller / "corpus-x" / "train.jsonl").is_file()
    assert default["path"] == str(caller / "data" / "corpus" / f"run-{default['run_id']}-tsv")
    assert (caller / "data" / "corpus" / f"run-{default['run_id']}-tsv" / "train.tsv").is_file()
    assert not any(elsewhere.iterdir()), sorted(p.name for p in elsewhere.rglob("*"))


@pytest.mark.timeout(300)
def test_a_part_that_fails_on_a_worker_ends_the_wait_in_one_line(tmp_path, monkeypatch,
                                                                  redis_url):
    """The client waits on the chord alone (not on each part): a part that fails on a worker
    still ends the wait, with the part's reason, and the run is recorded as failed."""
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/0")
    settings = load_settings()
    store_synthetic_groups(settings, 40)
    broken = tmp_path / "broken-index"
    broken.write_text("a file where the worker's index should be")
    with open(tmp_path / "worker.log", "w") as log:
        worker = start_worker({**os.environ, "PARAWIRE_INDEX__PATH": str(broken)}, log)
        try:
            with pytest.raises(ParawireError, match=r"^align run (\d+) failed: .*cannot open "
                                                    r"the tantivy index") as failed:
                run_stage(settings, "align")
        finally:
            stop_worker(worker)
    run_id = int(failed.value.args[0].split()[2])
    assert store_of(settings).alignment_run(run_id).status == "failed"


@pytest.mark.timeout(300)
def test_a_daily_job_that_reaches_no_outlet_fails_on_the_worker(tmp_path, monkeypatch,
                                                                redis_url):
    """On a worker, as beat would start it: the daily job's result is a failure naming the
    outlet, the command exits 3's way, and the next job runs as the first did."""
    from parawire.errors import NoOutletReached
    from parawire.roof.pipeline import Pipeline
    from parawire.roof.tasks import DAILY_TASK, create_app
    from tests.integration.test_crawl_dark_outlets import closed_port, outlet

    sources = tmp_path / "sources.toml"
    sources.write_text(outlet("refusing", [f"http://127.0.0.1:{closed_port()}/feed.xml"]))
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/3")
    monkeypatch.setenv("PARAWIRE_CRAWL__SOURCES", str(sources))
    monkeypatch.setenv("PARAWIRE_CRAWL__OBEY_ROBOTS", "false")
    monkeypatch.setenv("PARAWIRE_CRAWL__RETRY_TIMES", "0")
    settings = load_settings()
    with open(tmp_path / "worker.log", "w") as log:
        worker = start_worker(dict(os.environ), log)
        try:
            result = create_app(settings).tasks[DAILY_TASK].delay("2026-11-24")
            result.get(timeout=120, propagate=False)
            report = Pipeline(settings).daily(date(2026, 11, 24))
        finally:
            stop_worker(worker)
    output = (tmp_path / "worker.log").read_text()
    assert result.state == "FAILURE", output
    assert isinstance(result.result, NoOutletReached), repr(result.result)
    assert "refusing: 127.0.0.1:" in str(result.result)
    assert [run["status"] for run in report["crawl"]] == ["failed"] and report["align"] is None
    assert store_of(settings).outlet_health()["refusing"].failed_days == 1
    assert store_of(settings).alignment_runs() == []
