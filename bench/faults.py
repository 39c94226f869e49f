"""Random worker kills during alignment on PostgreSQL + Redis: do clients finish by
themselves, with exactly the uninterrupted pairs?

    scripts/with-services.sh nice -n 10 .venv/bin/python bench/faults.py [--rounds 5]
        [--articles 600] [--workers 2] [--concurrency 2] [--kills 2] [--stall 4]

One store of synthetic annotated articles (tests/factories.py) is indexed once and aligned
eagerly (the baseline). Then each round starts an alignment run of its own (its own date
window, holding the same references) through real prefork workers, and `--kills` times,
each at a random moment after the run has moved on since the last, kills either a whole
worker (kill -9 of its main process, then a new worker is started, as an operator would) or
one pool process. Each round records whether the
waiting client finished by itself, the pairs lost, duplicated or scored differently against
the baseline, deadlocks in the worker logs, exact counts, and the seconds from the last
kill to the client's return. Results go to bench/results/faults.json.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

from common import report

from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests/ helpers
from tests.factories import store_synthetic_groups
from tests.workers import children, fresh_database, kill_worker, start_worker, stop_worker


def _pairs(settings: Any, run_id: int) -> dict[tuple[int, int], tuple[float, float]]:
    return {(p.input_sentence_id, p.target_sentence_id): (round(p.score, 9), round(p.raw_score, 6))
            for p in store_of(settings).pairs(run_id)}


def _done(settings: Any, after_run: int) -> int:
    """References done by the latest run, when it was opened after run `after_run`."""
    store = store_of(settings)
    runs = store.alignment_runs(limit=1)
    latest = runs[0].id if runs and runs[0].id else 0
    return store.count_done_references(latest) if latest > after_run else 0


def _round(settings: Any, env: dict[str, str], logs: Path, number: int, args: argparse.Namespace,
           baseline: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    workers = [start_worker(env, (logs / f"r{number}-w{i}.log").open("w"), args.concurrency,
                            f"r{number}w{i}") for i in range(args.workers)]
    outcome: dict[str, Any] = {}
    before = max((run.id or 0 for run in store_of(settings).alignment_runs(limit=1)), default=0)
    until = date(2030, 1, 1 + number)  # a run key of its own, the same references
    client = threading.Thread(target=lambda: outcome.update(
        run_stage(settings, "align", until=until)))
    started = time.monotonic()
    client.start()
    kills: list[str] = []
    last_kill = started
    try:
        for k in range(args.kills):
            progress = _done(settings, before)
            while client.is_alive() and _done(settings, before) <= progress:  # mid-alignment
                time.sleep(0.05)
            time.sleep(rng.uniform(0.2, 2.0))
            if not client.is_alive():
                break
            victim = rng.randrange(len(workers))
            pool = children(workers[victim].pid)
            if pool and rng.random() < 0.5:
                os.kill(rng.choice(pool), signal.SIGKILL)
                kills.append("pool process")
            else:
                kill_worker(workers[victim])
                workers[victim] = start_worker(
                    env, (logs / f"r{number}-w{victim}-{k}.log").open("w"), args.concurrency,
                    f"r{number}w{victim}k{k}")
                kills.append("worker")
            last_kill = time.monotonic()
        client.join(timeout=args.bound)
        finished = not client.is_alive()
        recovered = time.monotonic() - last_kill
    finally:
        for worker in workers:
            stop_worker(worker)
    client.join()
    store = store_of(settings)
    run = store.alignment_runs(limit=1)[0]
    got, want = _pairs(settings, run.id), baseline["pairs"]
    deadlocks = sum(log.read_text(errors="replace").count("DeadlockDetected")
                    for log in logs.glob(f"r{number}-*.log"))
    counts = {k: v for k, v in run.counts.items() if k != "references_selected"}
    return {
        "kills": kills, "finished_unaided": finished, "status": run.status,
        "pairs_lost": len(set(want) - set(got)), "pairs_extra": len(set(got) - set(want)),
        "pairs_duplicated": store.counts()["pairs"] - sum(
            len(_pairs(settings, r.id)) for r in store.alignment_runs(limit=1000)),
        "scores_differ": sum(got[k] != want[k] for k in set(got) & set(want)),
        "counts_exact": counts == baseline["counts"],
        "deadlocks": deadlocks, "seconds_after_last_kill": round(recovered, 2),
        "seconds": round(time.monotonic() - started, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--articles", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--stall", type=int, default=4, help="broker.stall_timeout (s)")
    parser.add_argument("--batch", type=int, default=10, help="align.batch_size")
    parser.add_argument("--bound", type=int, default=300, help="seconds a client may take")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    pg, redis = os.environ.get("PARAWIRE_TEST_PG_URL"), os.environ.get("PARAWIRE_TEST_REDIS_URL")
    if not pg or not redis:
        sys.exit("run it under scripts/with-services.sh (PostgreSQL and Redis)")
    logs = Path(tempfile.mkdtemp(prefix="parawire-faults-"))
    rng = random.Random(args.seed)
    with fresh_database(pg) as url:
        os.environ.update({
            "PARAWIRE_DATA_DIR": str(logs / "data"), "PARAWIRE_STORE__URL": url,
            "PARAWIRE_ALIGN__BATCH_SIZE": str(args.batch),
            "PARAWIRE_ALIGN__WITHIN": "window",  # synthetic articles: no stories
            "PARAWIRE_BROKER__STALL_TIMEOUT": str(args.stall)})
        eager = load_settings()
        store_synthetic_groups(eager, args.articles)
        run_stage(eager, "index")
        first = run_stage(eager, "align")
        baseline = {"pairs": _pairs(eager, first["run_id"]),
                    "counts": {k: v for k, v in first.items()
                               if k not in ("run_id", "references_selected")}}
        os.environ["PARAWIRE_BROKER__URL"] = redis + "/3"
        remote = load_settings()
        rounds = [_round(remote, dict(os.environ), logs, n, args, baseline, rng)
                  for n in range(args.rounds)]
        store_of(remote).engine.dispose()
    faults = sum(len(r["kills"]) for r in rounds)
    report("faults", {
        "machine": "shared 2-core machine, other engineers' jobs running",
        "settings": vars(args), "baseline_pairs": len(baseline["pairs"]),
        "faults": faults,
        "worker_kills": sum(r["kills"].count("worker") for r in rounds),
        "pool_process_kills": sum(r["kills"].count("pool process") for r in rounds),
        "runs_finished_unaided": sum(r["finished_unaided"] for r in rounds),
        "rounds": len(rounds),
        "pairs_lost": sum(r["pairs_lost"] for r in rounds),
        "pairs_extra": sum(r["pairs_extra"] for r in rounds),
        "pairs_duplicated": sum(r["pairs_duplicated"] for r in rounds),
        "scores_differ": sum(r["scores_differ"] for r in rounds),
        "runs_with_exact_counts": sum(r["counts_exact"] for r in rounds),
        "deadlocks": sum(r["deadlocks"] for r in rounds),
        "max_seconds_after_last_kill": max(r["seconds_after_last_kill"] for r in rounds),
        "per_round": rounds,
    })


if __name__ == "__main__":
    main()
