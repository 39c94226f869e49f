"""SIGINT or SIGTERM to a long stage: its run is recorded as interrupted with the signal, the
command exits non-zero, and running it again completes the run as an uninterrupted one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_synthetic_groups as fill
from tests.integration.test_align_resume import pair_rows, wait_for
from tests.workers import ROOT


def parawire(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "parawire", *args], cwd=ROOT,
                            env=dict(os.environ), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.mark.timeout(200)
def test_an_interrupted_alignment_is_recorded_and_resumed_identically(tmp_path, monkeypatch):
    monkeypatch.setenv("PARAWIRE_ALIGN__BATCH_SIZE", "2")
    settings = load_settings()
    fill(settings, 300)
    run_stage(settings, "index")
    store = store_of(settings)
    done_before = 0
    for sent in (signal.SIGINT, signal.SIGTERM):  # interrupted, resumed, interrupted again
        command = parawire("align")

        def moved(since: int = done_before) -> bool:
            runs = store.alignment_runs(limit=1)
            return bool(runs) and store.count_done_references(runs[0].id) > since

        assert wait_for(moved, 60), command.communicate()
        command.send_signal(sent)
        _, err = command.communicate(timeout=60)
        (run,) = store.alignment_runs()
        assert command.returncode != 0
        assert (run.status, run.reason) == ("interrupted", sent.name), err
        assert "Traceback" not in err
        status = subprocess.run([sys.executable, "-m", "parawire", "status"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
        assert f"#{run.id} interrupted ({sent.name}) references done" in status
        done_now = store.count_done_references(run.id)
        assert done_before < done_now < run.counts["references_selected"]
        done_before = done_now

    resumed = run_stage(settings, "align")
    assert resumed["run_id"] == run.id and store.alignment_run(run.id).status == "finished"

    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "uninterrupted"))
    again = load_settings()
    fill(again, 300)
    run_stage(again, "index")
    uninterrupted = run_stage(again, "align")
    assert pair_rows(settings, run.id) == pair_rows(again, uninterrupted["run_id"])
    assert {**resumed, "run_id": 0} == {**uninterrupted, "run_id": 0}


@pytest.mark.timeout(120)
def test_a_crawl_stopped_by_sigterm_is_recorded_as_interrupted(tmp_path):
    from datetime import UTC, datetime

    from parawire.crawler.loopback import Page, serve_pages

    today = datetime.now(UTC).date()

    def slow_site(base: str) -> dict[str, Page]:
        pages = {f"/story-{n}.html": Page(200, {"Content-Type": "text/html"}, b"<p>slow</p>", 2.0)
                 for n in range(40)}
        items = "".join(f"<item><link>{base}{path}</link></item>" for path in pages)
        pages["/feed.xml"] = Page(200, {"Content-Type": "application/rss+xml"},
                                  f"<rss><channel>{items}</channel></rss>".encode(), 0)
        return pages

    settings = load_settings()
    store = store_of(settings)
    with serve_pages(slow_site) as base:
        sources = tmp_path / "sources.toml"
        sources.write_text(f'[[outlet]]\nname = "slow"\nlanguage = "en"\n'
                           f'domains = ["127.0.0.1"]\nfeeds = ["{base}/feed.xml"]\n')
        command = parawire("crawl", "--sources", str(sources), "--since", today.isoformat(),
                           "--until", today.isoformat())
        assert wait_for(lambda: bool(store.crawl_runs()), 60), command.communicate()
        time.sleep(2)  # the crawl child is fetching
        command.send_signal(signal.SIGTERM)
        _, err = command.communicate(timeout=60)
    (run,) = store.crawl_runs()
    assert command.returncode != 0 and "Traceback" not in err, err
    assert run.status == "interrupted", (run, err)
    assert run.reason in ("stopped by a signal", "SIGTERM")
