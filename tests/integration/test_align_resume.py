"""Kill real Celery workers mid-run: the waiting client finishes the run by itself with
exactly the pairs, scores and counts an uninterrupted run gives."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

import pytest

from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_synthetic_groups as fill
from tests.workers import children, fresh_database, kill_worker, start_worker, stop_worker

# Synthetic articles of the runs that kill workers.
ARTICLES = 600


def pair_rows(settings, run_id):
    return sorted((p.input_sentence_id, p.target_sentence_id, round(p.score, 9),
                   round(p.raw_score, 6)) for p in store_of(settings).pairs(run_id))


def wait_for(condition, seconds: float = 120) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def kill_one(pids: list[int]) -> bool:
    """SIGKILL the first of these processes still alive; whether one was."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
        return True
    return False


@pytest.mark.timeout(400)
def test_killed_workers_leave_a_client_that_finishes_with_the_uninterrupted_pairs(
        tmp_path, monkeypatch, caplog, redis_url, postgres_url):
    """kill -9 of a pool process, then of a whole worker (which a supervisor replaces),
    mid-alignment on PostgreSQL: the waiting client finishes by itself (no restart, no
    re-run, the default visibility timeout), with the pairs, scores and counts of an
    uninterrupted eager run."""
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "remote"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/3")  # a database of its own
    monkeypatch.setenv("PARAWIRE_BROKER__STALL_TIMEOUT", "4")
    monkeypatch.setenv("PARAWIRE_ALIGN__BATCH_SIZE", "10")
    with fresh_database(postgres_url) as url:
        monkeypatch.setenv("PARAWIRE_STORE__URL", url)
        remote = load_settings()
        fill(remote, ARTICLES)
        store = store_of(remote)
        env = dict(os.environ)
        logs = [tmp_path / f"w{n}.log" for n in (1, 2, 3)]
        first, second = (start_worker(env, logs[n].open("w"), hostname=f"w{n + 1}")
                         for n in (0, 1))
        workers = [first, second]
        try:
            run_stage(remote, "index")
            outcome: dict = {}
            client = threading.Thread(target=lambda: outcome.update(run_stage(remote, "align")))
            client.start()

            def done() -> int:
                runs = store.alignment_runs(limit=1)
                return store.count_done_references(runs[0].id) if runs else 0

            assert wait_for(lambda: done() > 0), "the run never started on the workers"
            # The second worker may still be starting (its import loads torch) when the first
            # has stored a batch: its pool processes come once it has booted.
            # A process seen while the worker boots may be gone a moment later: kill one that
            # is there when the signal goes.
            assert wait_for(lambda: kill_one(children(second.pid))), \
                "the worker has no pool processes"  # a pool process, mid-batch
            at_first_kill = done()
            assert wait_for(lambda: done() > at_first_kill + 20)
            kill_worker(first)  # a whole worker, with the batches it holds
            # Its replacement; the worker whose pool process died may hang (Celery's prefork
            # pool after a SIGKILL), and the batches sent again need a live worker.
            workers.append(start_worker(env, logs[2].open("w"), hostname="w3"))
            client.join(timeout=300)
            assert not client.is_alive(), "the client did not finish by itself:\n" + "\n".join(
                f"{log.name}: {log.read_text()[-1500:]}" for log in logs)
        finally:
            for worker in workers:
                stop_worker(worker)
        run = store.alignment_runs(limit=1)[0]
        remote_pairs = pair_rows(remote, run.id)
        store.engine.dispose()

    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "eager"))
    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    monkeypatch.delenv("PARAWIRE_STORE__URL")
    eager = load_settings()
    fill(eager, ARTICLES)
    run_stage(eager, "index")
    uninterrupted = run_stage(eager, "align")
    assert (run.status, run.reason) == ("finished", "")
    assert "pending references again" in caplog.text  # the lost batches were sent again
    assert remote_pairs == pair_rows(eager, uninterrupted["run_id"])
    assert {**outcome, "run_id": 0} == {**uninterrupted, "run_id": 0}
    assert run.counts == {k: v for k, v in outcome.items() if k != "run_id"}
    assert outcome["pairs"] == len(remote_pairs) > 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_aligns_at_once_share_one_run_without_duplicates(tmp_path, monkeypatch, backend,
                                                             request):
    monkeypatch.setenv("PARAWIRE_ALIGN__BATCH_SIZE", "5")
    with contextlib.ExitStack() as stack:
        if backend == "postgresql":
            url = stack.enter_context(fresh_database(request.getfixturevalue("postgres_url")))
            monkeypatch.setenv("PARAWIRE_STORE__URL", url)
        settings = load_settings()
        fill(settings, 200)
        run_stage(settings, "index")
        barrier = threading.Barrier(2)
        outcomes: list[dict] = []

        def align() -> None:
            barrier.wait()
            outcomes.append(run_stage(settings, "align"))

        clients = [threading.Thread(target=align) for _ in range(2)]
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=120)
        store = store_of(settings)
        runs = store.alignment_runs()
        keys = [(p.input_sentence_id, p.target_sentence_id) for p in store.pairs(runs[0].id)]
        store.engine.dispose()
    assert len(runs) == 1 and len(outcomes) == 2
    assert len(keys) == len(set(keys)) == outcomes[0]["pairs"] == outcomes[1]["pairs"] > 0
    assert outcomes[0]["references_done"] == outcomes[0]["references"]
    assert runs[0].counts == {k: v for k, v in outcomes[1].items() if k != "run_id"}
