"""Real Celery workers and throw-away PostgreSQL databases for the tests that inject faults
(and bench/faults.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]


def start_worker(env: dict[str, str], log=subprocess.DEVNULL, concurrency: int = 2,
                 hostname: str = "w1", cwd: Path = ROOT) -> subprocess.Popen:
    """A worker as `parawire worker` starts one (in `cwd`): the default prefork pool, here
    of `concurrency` processes, in a process group of its own (see `kill_worker`)."""
    return subprocess.Popen(
        [sys.executable, "-m", "parawire", "worker", f"--concurrency={concurrency}",
         "--without-gossip", "--without-mingle", "-l", "warning", "-n", f"{hostname}@%h"],
        cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )


def kill_worker(worker: subprocess.Popen) -> None:
    """kill -9 of a whole worker at once, its main process and its pool processes, as when
    its machine dies: the batches it holds are lost with it. (A kill of the main process
    alone leaves its pool processes to finish, and store, the batches they were running.)"""
    os.killpg(worker.pid, signal.SIGKILL)
    worker.wait()


def stop_worker(worker: subprocess.Popen) -> None:
    """Stop a worker (warm shutdown), killing it when it does not stop in time."""
    if worker.poll() is None:
        worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (a worker's pool processes), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)


@contextmanager
def fresh_database(server_url: str) -> Iterator[str]:
    """A new, empty database on the PostgreSQL server of `server_url`; dropped afterwards."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        yield server_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
