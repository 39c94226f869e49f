"""Stages run by a real Celery worker over redis-server give what eager mode gives."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_demo_articles

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _worker(env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "parawire.roof.celery_app", "worker", "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
    )


def _pair_texts(settings, run_id):
    return sorted((row.input.text, row.target.text)
                  for row in store_of(settings).pair_rows(run_id))


@pytest.mark.timeout(300)
def test_worker_runs_stages_like_eager_mode(tmp_path, monkeypatch, redis_url):
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "worker"))
    monkeypatch.setenv("PARAWIRE_BROKER__URL", redis_url + "/0")
    remote = load_settings()
    store_demo_articles(store_of(remote))
    with open(tmp_path / "worker.log", "w") as log:
        worker = _worker(dict(os.environ), log)
        try:
            annotated = run_stage(remote, "annotate")
            indexed = run_stage(remote, "index")
            aligned = run_stage(remote, "align")
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    output = (tmp_path / "worker.log").read_text()
    assert annotated["articles"] > 0, output
    assert indexed["indexed"] == store_of(remote).counts()["sentences"]
    assert aligned["pairs"] > 0

    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "eager"))
    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    eager = load_settings()
    store_demo_articles(store_of(eager))
    assert run_stage(eager, "annotate") == annotated
    run_stage(eager, "index")
    eager_run = run_stage(eager, "align")
    assert _pair_texts(eager, eager_run["run_id"]) == _pair_texts(remote, aligned["run_id"])
