"""SIGINT or SIGTERM to a long stage: its run is recorded as interrupted with the signal, the
command exits non-zero, and running it again completes the run as an uninterrupted one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from parawire.config import load_settings
from parawire.crawler.loopback import Page, serve_pages
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_synthetic_groups as fill
from tests.integration.test_align_resume import pair_rows, wait_for
from tests.processes import HAS_PROC, live_processes
from tests.workers import ROOT


def parawire(*args: str) -> subprocess.Popen:
    """The command in a process of its own; PYTHONFAULTHANDLER makes a SIGABRT print the
    stack of each of its threads."""
    return subprocess.Popen([sys.executable, "-m", "parawire", *args], cwd=ROOT,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stopped_output(command: subprocess.Popen, seconds: float = 60) -> str:
    """The stderr of a command once it exits after a signal (to it or to its child); one that
    has not exited within `seconds` fails the test with the stacks where it hangs."""
    try:
        return command.communicate(timeout=seconds)[1]
    except subprocess.TimeoutExpired:
        command.send_signal(signal.SIGABRT)
        pytest.fail(f"still running {seconds} s after the signal:\n{command.communicate()[1]}")


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
        err = stopped_output(command)
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


def _slow_site(base: str) -> dict[str, Page]:
    """A feed of 40 pages that each take two seconds to answer."""
    pages = {f"/story-{n}.html": Page(200, {"Content-Type": "text/html"}, b"<p>slow</p>", 2.0)
             for n in range(40)}
    items = "".join(f"<item><link>{base}{path}</link></item>" for path in pages)
    pages["/feed.xml"] = Page(200, {"Content-Type": "application/rss+xml"},
                              f"<rss><channel>{items}</channel></rss>".encode(), 0)
    return pages


def _crawl_today(tmp_path: Path, base: str) -> subprocess.Popen:
    """`parawire crawl` of the slow site, for today."""
    today = datetime.now(UTC).date().isoformat()
    sources = tmp_path / "sources.toml"
    sources.write_text(f'[[outlet]]\nname = "slow"\nlanguage = "en"\n'
                       f'domains = ["127.0.0.1"]\nfeeds = ["{base}/feed.xml"]\n')
    return parawire("crawl", "--sources", str(sources), "--since", today, "--until", today)


@pytest.mark.timeout(120)
def test_a_crawl_stopped_by_sigterm_is_recorded_as_interrupted(tmp_path):
    store = store_of(load_settings())
    with serve_pages(_slow_site) as base:
        command = _crawl_today(tmp_path, base)
        assert wait_for(lambda: bool(store.crawl_runs()), 60), command.communicate()
        time.sleep(2)  # the crawl child is fetching
        command.send_signal(signal.SIGTERM)
        err = stopped_output(command)
    (run,) = store.crawl_runs()
    assert command.returncode != 0 and "Traceback" not in err, err
    assert run.status == "interrupted", (run, err)
    assert run.reason in ("the crawler was stopped by SIGTERM", "SIGTERM")


# The crawl child, with a spider that takes a minute to open; a file says the reactor runs.
_OPENING_SLOWLY = """
import json, sys
from pathlib import Path
from scrapy.core.engine import ExecutionEngine
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task
from parawire.crawler.runner import crawl_here

opening = ExecutionEngine.open_spider_async

async def open_slowly(self, **options):
    from twisted.internet import reactor  # the one Scrapy installed
    reactor.callLater(0.2, Path(sys.argv[1]).touch)
    await maybe_deferred_to_future(task.deferLater(reactor, 60, lambda: None))
    await opening(self, **options)

ExecutionEngine.open_spider_async = open_slowly
crawl_here(json.load(sys.stdin))
"""


@pytest.mark.timeout(120)
def test_a_crawl_stopped_while_its_spider_opens_is_recorded_as_interrupted(tmp_path):
    """SIGTERM once Scrapy's handlers are in place but before the spider has opened: Scrapy
    gives no finish reason, and the run is still closed as interrupted, not failed."""
    settings = load_settings()
    store = store_of(settings)
    today = datetime.now(UTC).date().isoformat()
    sources = tmp_path / "sources.toml"
    sources.write_text('[[outlet]]\nname = "quiet"\nlanguage = "en"\n'
                       'domains = ["127.0.0.1"]\nfeeds = ["http://127.0.0.1:9/feed.xml"]\n')
    run_id = store.start_crawl_run({"since": today, "until": today})
    job = {"store_url": settings.store_url, "run_id": run_id, "sources": str(sources),
           "since": today, "until": today, "crawl": settings.crawl.model_dump(mode="json"),
           "filters": {}, "log_file": str(tmp_path / "crawl.log")}
    running = tmp_path / "reactor-running"
    child = subprocess.Popen([sys.executable, "-c", _OPENING_SLOWLY, str(running)], cwd=ROOT,
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdin is not None
    child.stdin.write(json.dumps(job))
    child.stdin.close()
    child.stdin = None
    assert wait_for(running.exists, 60), child.communicate()
    child.send_signal(signal.SIGTERM)
    err = stopped_output(child)
    run = store.crawl_run(run_id)
    assert run is not None and child.returncode == 0, err
    assert (run.status, run.reason) == ("interrupted", "the crawler was stopped by SIGTERM"), err


def _in_session(session: int) -> list[int]:
    """The live processes of a session."""
    return [pid for pid, (_, member_of) in live_processes().items() if member_of == session]


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
@pytest.mark.timeout(120)
def test_a_crawl_child_stopped_while_it_starts_leaves_no_process_behind(tmp_path):
    """SIGTERM to the crawl child once its extraction workers exist, before Scrapy's own
    handlers can close the crawl: the command still ends, records the run as interrupted,
    and none of the child's workers outlives it (they would hold the command's output)."""
    store = store_of(load_settings())
    with serve_pages(_slow_site) as base:
        command = _crawl_today(tmp_path, base)

        def child_with_workers() -> int | None:
            processes = live_processes()
            children = [pid for pid, (parent, _) in processes.items() if parent == command.pid]
            return next((pid for pid in children
                         if any(parent == pid for parent, _ in processes.values())), None)

        assert wait_for(lambda: child_with_workers() is not None, 60), command.communicate()
        child = child_with_workers()
        assert child is not None
        os.kill(child, signal.SIGTERM)
        err = stopped_output(command)
    assert wait_for(lambda: not _in_session(child), 10), _in_session(child)  # killed: ending
    (run,) = store.crawl_runs()
    assert command.returncode != 0 and "Traceback" not in err, err
    assert run.status == "interrupted", (run, err)
