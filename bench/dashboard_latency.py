"""Dashboard latency under concurrent clients, on SQLite or PostgreSQL, idle and while an
alignment writes pairs.

    .venv/bin/python bench/dashboard_latency.py [--pairs 100000] [--clients 20]
        [--requests 200] [--store-url postgresql+psycopg://...]

Builds a synthetic store with bulk inserts (articles over outlets, topics, languages and
30 days; ten sentences per article; one alignment run holding `--pairs` pairs), then serves
it with `uvicorn` in a child process (the whole app: Host check, routing, validation,
queries, serialisation, templates) and sends each request `--requests` times from
`--clients` concurrent HTTP clients on loopback, printing p50/p95 per request against the
200 ms p95 target. Three phases: the first overview after the server starts (timed from
the moment it listens, a fresh server each time: the very first start on a store never
counted, then restarts), every request while idle, and every
request while another process records a new alignment run's pairs in batches (as
`parawire align` does). Results go to bench/results/dashboard_latency[-postgresql].json.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from common import report

from parawire.config import Settings, load_settings
from parawire.records import Pair
from parawire.store import Store, open_store, schema

OUTLETS = ["civic-ledger", "coastline-wire", "harbor-gazette", "metro-bulletin", "valley-courier"]
TOPICS = ["politics", "economics", "culture", "sports", "society", "technology", "nature"]
NAMES = [f"name{i}" for i in range(2000)]
WORDS = [f"word{i}" for i in range(20000)]
SENTENCES_PER_ARTICLE = 10
TARGET_P95_MS = 200.0
WRITER_BATCH = 200  # pairs per batch the simulated alignment records (align.batch_size)


def _sentence_row(rng: random.Random, article: dict[str, Any], position: int) -> dict[str, Any]:
    names = rng.sample(NAMES, 2)
    nouns = rng.sample(WORDS, 8)
    text = " ".join([names[0].title(), *nouns[:4], names[1].title(), *nouns[4:]]) + "."
    return {"article_id": article["id"], "position": position, "text": text,
            "tokens": text.split(), "lemmas": text.split(), "pos": [], "entities": [],
            "proper_nouns": sorted(names), "entity_keys": sorted(names),
            "common_nouns": sorted(nouns), "collocations": [],
            "language": article["language"], "topic": article["topic"],
            "published": article["published"], "source": article["source"]}


def build_store(store: Store, pairs: int, seed: int = 7) -> dict[str, int]:
    """Fill an empty store with enough articles and sentences for `pairs` pairs."""
    rng = random.Random(seed)
    n_sentences = max(2 * pairs, 1000)
    n_articles = n_sentences // SENTENCES_PER_ARTICLE
    first_day = date(2026, 3, 1)
    now = datetime.now(UTC).replace(tzinfo=None)  # the store keeps naive UTC
    articles = [{
        "id": i + 1, "url": f"http://bench.test/{i}", "canonical_url": f"http://bench.test/{i}",
        "source": OUTLETS[i % len(OUTLETS)], "language": "en" if i % 4 else "fr",
        "topic": TOPICS[i % len(TOPICS)], "published": first_day + timedelta(days=i % 30),
        "crawled_at": now, "title": f"Article {i}", "text": "", "author": "",
        "content_hash": f"{i:064x}", "annotated": True,
    } for i in range(n_articles)]
    with store.engine.begin() as conn:
        conn.execute(schema.articles.insert(), articles)
        rows = [_sentence_row(rng, article, position) for article in articles
                for position in range(SENTENCES_PER_ARTICLE)]
        for start in range(0, len(rows), 20_000):
            conn.execute(schema.sentences.insert(), rows[start:start + 20_000])
        run_id = conn.execute(schema.alignment_runs.insert().values(
            run_key="bench", parameters={"beta": 0.7}, started_at=now, finished_at=now,
            status="finished", counts={"pairs": pairs})).inserted_primary_key[0]
        # Each input sentence (odd ids) is paired with the next sentence id.
        pair_rows = [{"run_id": run_id, "input_sentence_id": 2 * k + 1,
                      "target_sentence_id": 2 * k + 2, "score": round(rng.uniform(0.7, 1), 4),
                      "raw_score": rng.uniform(5, 30), "shared_pn": 2, "shared_cn": 3}
                     for k in range(pairs)]
        conn.execute(schema.pairs.insert(), pair_rows)
        conn.execute(schema.alignment_references.insert(),
                     [{"run_id": run_id, "sentence_id": 2 * k + 1} for k in range(pairs)])
    if store.engine.dialect.name == "postgresql":
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    return {"articles": n_articles, "sentences": len(rows), "pairs": pairs, "run_id": run_id}


def _serve(settings: Settings, port: int) -> None:
    """The dashboard as `parawire serve` runs it (child process)."""
    import uvicorn

    from parawire.dashboard import create_app

    uvicorn.run(create_app(settings, token="bench"), host="127.0.0.1", port=port,
                log_level="warning")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A dashboard server in a child process, listening on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.port = _free_port()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(settings, self.port), daemon=True)

    def __enter__(self) -> Server:
        self.process.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the dashboard did not start listening")

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _load(url: str, path: str, clients: int, requests: int) -> dict[str, Any]:
    """`requests` GETs of `path` from `clients` concurrent keep-alive clients."""
    timings: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(count: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as http:
            http.get(path)  # warm the connection
            for _ in range(count):
                started = time.perf_counter()
                response = http.get(path)
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    timings.append(elapsed)
                    statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

    shares = [requests // clients + (i < requests % clients) for i in range(clients)]
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, shares))
    p95 = _percentile(timings, 0.95)
    return {"path": path, "requests": len(timings), "statuses": statuses,
            "p50_ms": round(statistics.median(timings), 1), "p95_ms": round(p95, 1),
            "max_ms": round(max(timings), 1), "meets_200ms_p95": p95 <= TARGET_P95_MS}


def _first_overview(settings: Settings, repeat: int) -> dict[str, Any]:
    """Milliseconds from a fresh server listening to its first overview's answer, on a store
    the dashboard has counted before (a restart: the saved overview answers)."""
    timings = []
    for _ in range(repeat):
        with Server(settings) as server:
            started = time.perf_counter()
            response = httpx.get(server.url + "/api/overview", timeout=120)
            timings.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.text[:200]
    return {"path": "/api/overview (first after a start)", "requests": repeat,
            "p50_ms": round(statistics.median(timings), 1), "max_ms": round(max(timings), 1),
            "p95_ms": round(_percentile(timings, 0.95), 1),
            "meets_200ms_p95": _percentile(timings, 0.95) <= TARGET_P95_MS}


def _align_writer(url: str, sentences: int, stop: Any, written: Any) -> None:
    """Record a new alignment run's pairs batch after batch until told to stop (child)."""
    store = open_store(url)
    run = store.find_or_start_alignment_run(f"bench-writer-{time.time()}", {"beta": 0.7})
    rng = random.Random(11)
    while not stop.is_set():
        refs = rng.sample(range(1, sentences, 2), WRITER_BATCH)
        store.record_references(run.id, refs, [
            Pair(run.id, ref, ref + 1, rng.uniform(0.7, 1), 10.0, 2, 3) for ref in refs])
        with written.get_lock():
            written.value += WRITER_BATCH
        time.sleep(0.05)


def _cases(store: Store, run: int) -> dict[str, str]:
    with store.engine.connect() as conn:
        probe = conn.execute(sa.select(schema.sentences.c.text, schema.sentences.c.proper_nouns,
                                       schema.sentences.c.source)
                             .where(schema.sentences.c.id == 1001)).one()
    word = probe.text.split()[2]  # one of 20k words: in about 80 of the 200k sentences
    return {
        "overview_api": "/api/overview",
        "overview_page": "/",
        "pairs_newest_page": f"/api/pairs?run={run}",
        "pairs_text_search": f"/api/pairs?q={word}",
        "pairs_text_search_page": f"/pairs?q={word}",
        "pairs_entity_search": f"/api/pairs?entity={probe.proper_nouns[0]}",
        "pairs_entity_rare": "/api/pairs?entity=name1999",
        "pairs_outlet_dates_scores": (f"/api/pairs?outlet={probe.source}&since=2026-03-05"
                                      "&until=2026-03-12&min_score=0.9&max_score=0.95"),
        "pairs_text_no_match": "/api/pairs?q=absent-word",
        "pairs_entity_no_match": "/api/pairs?entity=nobody-at-all",
        "alignment_runs": "/api/alignment-runs",
        "crawl_page": "/crawl",
        "review_sample": f"/api/runs/{run}/review/sample?size=10",
        "precision": f"/api/runs/{run}/precision",
        "health": "/health",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200, help="per request and phase")
    parser.add_argument("--first", type=int, default=3, help="fresh servers for the first "
                                                               "overview")
    parser.add_argument("--store-url", default="", help="default: SQLite in a temp folder")
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="parawire-bench-dash-"))
    settings = load_settings(data_dir=data_dir, store={"url": args.store_url})
    store = open_store(settings.store_url)
    started = time.perf_counter()
    built = build_store(store, args.pairs)
    build_s = time.perf_counter() - started
    print(f"built {built} in {build_s:.0f} s", file=sys.stderr)
    cases = _cases(store, built["run_id"])
    results: dict[str, dict[str, Any]] = {
        # The very first start counts everything (nothing saved yet); later ones answer
        # from the saved count while they recount.
        "first_overview_never_counted": _first_overview(settings, 1),
        "first_overview_after_restart": _first_overview(settings, args.first)}
    for name in ("first_overview_never_counted", "first_overview_after_restart"):
        print(name, results[name], file=sys.stderr)
    with Server(settings) as server:
        for phase in ("idle", "aligning"):
            stop, written = multiprocessing.Event(), multiprocessing.Value("i", 0)
            writer = None
            if phase == "aligning":
                writer = multiprocessing.get_context("fork").Process(
                    target=_align_writer, args=(settings.store_url, built["sentences"], stop,
                                                written), daemon=True)
                writer.start()
            for name, path in cases.items():
                results[f"{phase}/{name}"] = _load(server.url, path, args.clients, args.requests)
                print(phase, name, results[f"{phase}/{name}"], file=sys.stderr)
            if writer is not None:
                stop.set()
                writer.join(60)
                results["aligning/pairs_written_meanwhile"] = {"pairs": written.value}
    timed = [r for r in results.values() if "p95_ms" in r]
    report("dashboard_latency" + ("" if store.engine.dialect.name == "sqlite"
                                  else f"-{store.engine.dialect.name}"), {
        "store": store.engine.dialect.name, "corpus": built, "build_seconds": round(build_s, 1),
        "clients": args.clients, "requests_per_case": args.requests,
        "client": "httpx over loopback to uvicorn in a child process",
        "target_p95_ms": TARGET_P95_MS, "results": results,
        "all_meet_target": all(r["meets_200ms_p95"] for r in timed),
        "errors": sum(n for r in timed for code, n in r.get("statuses", {}).items()
                      if code >= 400),
    })


if __name__ == "__main__":
    main()
