"""Kill a real Celery worker mid-run: a new worker finishes the run with exactly the pairs
an uninterrupted run gives."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from datetime import date, timedelta

import pytest

from parawire.config import load_settings
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.conftest import ROOT
from tests.factories import make_sentence

NAMES = [f"name {i}" for i in range(60)]
NOUNS = [f"noun{i}" for i in range(120)]


def fill(settings, articles: int = 1500) -> None:
    """Synthetic annotated articles: groups that share names and most nouns."""
    rng = random.Random(5)
    store = store_of(settings)
    for n in range(articles):
        group = n // 4
        grng = random.Random(group)
        pn, cn = grng.sample(NAMES, 3), grng.sample(NOUNS, 4)
        cn = [c for c in cn if rng.random() > 0.2] + rng.sample(NOUNS, 1)
        day = date(2026, 3, 1) + timedelta(days=group % 9)
        article = Article(url=f"http://syn.test/{n}", source=f"outlet-{n % 4}", language="en",
                          title=f"t{n}", text=f"text {n}", published=day,
                          content_hash=f"{n:064d}")
        store.add_article(article)
        store.save_annotations(article.id, [
            make_sentence(None, article.id, pn, cn, published=day, source=article.source,
                          text=f"{n} " + " ".join(pn + cn)),
        ])


def start_worker(env):
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "parawire.roof.celery_app", "worker", "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def pair_keys(settings, run_id):
    return {(p.input_sentence_id, p.target_sentence_id) for p in store_of(settings).pairs(run_id)}


@pytest.mark.timeout(400)
def test_killed_worker_run_finishes_with_the_uninterrupted_pairs(tmp_path, monkeypatch,
                                                                  redis_url):
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "remote"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/1")
    monkeypatch.setenv("PARAWIRE_BROKER__VISIBILITY_TIMEOUT", "3")
    monkeypatch.setenv("PARAWIRE_ALIGN__BATCH_SIZE", "10")
    remote = load_settings()
    fill(remote)
    store = store_of(remote)
    env = dict(os.environ)
    worker = start_worker(env)
    try:
        run_stage(remote, "index")
        outcome: dict = {}
        runner = threading.Thread(target=lambda: outcome.update(run_stage(remote, "align")))
        runner.start()
        run = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            runs = store.alignment_runs(limit=1)
            if runs and 0 < len(store.done_references(runs[0].id)) < 300:
                run = runs[0]
                break
            time.sleep(0.01)
        assert run is not None, "the run never started on the worker"
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        interrupted_at = len(store.done_references(run.id))
        assert store.alignment_run(run.id).status == "running"
        worker = start_worker(env)
        runner.join(timeout=300)
        assert not runner.is_alive(), "the run did not finish after the worker restarted"
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    assert interrupted_at < outcome["references_done"]
    assert store.alignment_run(run.id).status == "finished"

    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "eager"))
    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    eager = load_settings()
    fill(eager)
    run_stage(eager, "index")
    uninterrupted = run_stage(eager, "align")
    assert pair_keys(remote, run.id) == pair_keys(eager, uninterrupted["run_id"])
    assert outcome["pairs"] == uninterrupted["pairs"] > 0
    assert outcome["references_done"] == uninterrupted["references_done"]
