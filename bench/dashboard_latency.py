"""Dashboard latency under concurrent clients, on SQLite and on PostgreSQL in one run, idle
and while an alignment writes pairs.

    scripts/with-services.sh .venv/bin/python bench/dashboard_latency.py [--pairs 100000]
        [--clients 20] [--requests 100] [--stores sqlite,postgresql] [--pg-url URL]
        [--cases overview_api,health,...]

Per store, builds a synthetic store with bulk inserts (articles over outlets, topics,
languages and 30 days; ten sentences per article; stories of five articles from five
outlets over two days, about 130 opening each day; one alignment run holding `--pairs`
pairs inside stories, graded about as the pair model grades real candidates; on PostgreSQL
in a database of its own, created on the `--pg-url` server, default $PARAWIRE_TEST_PG_URL
as scripts/with-services.sh sets it, and dropped at the end), then
serves it with `uvicorn` in a child process (the whole app: Host check, routing,
validation, queries, serialisation, templates) and sends each request of CASES
`--requests` times from `--clients` concurrent HTTP clients on loopback, printing p50/p95
per request against the 200 ms p95 target and the CPU milliseconds each request costs,
read from /proc whatever else the machine runs: in the server process, in PostgreSQL's
processes (SQLite runs inside the server), in the clients (this process) and on the whole
machine (the rest: the writer while aligning, other programs). Three
phases: the first overview after the server starts (timed from the moment it listens, a
fresh server each time: the very first start on a store never counted, then restarts),
every request while idle, and every request while another process records a new
alignment run's pairs in batches (as `parawire align` does). Both stores' results go to
one file, bench/results/dashboard_latency.json.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from common import report

from parawire.config import ServeConfig, Settings, load_settings
from parawire.records import Pair
from parawire.store import Store, open_store, schema

OUTLETS = ["civic-ledger", "coastline-wire", "harbor-gazette", "metro-bulletin", "valley-courier"]
TOPICS = ["politics", "economics", "culture", "sports", "society", "technology", "nature"]
NAMES = [f"name{i}" for i in range(2000)]
WORDS = [f"word{i}" for i in range(20000)]
SENTENCES_PER_ARTICLE = 10
ARTICLES_PER_STORY = 5  # consecutive articles, so five outlets over five days
# The pair model's grades in about the shares real candidates get them (grade -> weight).
GRADE_WEIGHTS = {0: 10, 1: 30, 2: 40, 3: 15, 4: 3, 5: 2}
TARGET_P95_MS = 200.0
WRITER_BATCH = 200  # pairs per batch the simulated alignment records (align.batch_size)
LABELS = 500  # pairs of the run reviewed already
CRAWL_RUNS = 60
STORES = ("sqlite", "postgresql")
# Every page and API call the dashboard serves (name -> path), formatted with the probe
# values of _probe(); a new page or filter is one more line.
CASES = {
    "overview_api": "/api/overview",
    "overview_page": "/",
    "index_api": "/api/index",
    "crawl_runs_api": "/api/crawl-runs",
    "crawl_page": "/crawl",
    "alignment_runs": "/api/alignment-runs",
    "runs_page": "/runs",
    "pairs_newest_page": "/api/pairs?run={run}",
    "pairs_page": "/pairs",
    "pairs_text_search": "/api/pairs?q={word}",
    "pairs_text_search_page": "/pairs?q={word}",
    "pairs_entity_search": "/api/pairs?entity={name}",
    "pairs_entity_rare": "/api/pairs?entity=name1999",
    "pairs_outlet_dates_scores": ("/api/pairs?outlet={outlet}&since=2026-03-05&until=2026-03-12"
                                  "&min_score=0.9&max_score=0.95"),
    "pairs_text_no_match": "/api/pairs?q=absent-word",
    "pairs_min_grade": "/api/pairs?min_grade=4",
    "pairs_grade_direction_page": "/pairs?run={run}&min_grade=3&direction=a_covers_b",
    "pairs_grade_no_match": "/api/pairs?min_grade=5&direction=both_add",
    "pairs_of_story": "/api/pairs?story={story}",
    "pairs_entity_no_match": "/api/pairs?entity=nobody-at-all",
    "article_api": "/api/articles/{article}",
    "article_page": "/articles/{article}",
    "story_days_api": "/api/stories/days",
    "stories_of_day_api": "/api/stories?day={day}",
    "stories_page": "/stories",
    "story_api": "/api/stories/{story}",
    "story_page": "/stories/{story}",
    "review_sample": "/api/runs/{run}/review/sample?size=10",
    "review_page": "/review/{run}",
    "precision": "/api/runs/{run}/precision",
    "labels": "/api/runs/{run}/labels",
    "health": "/health",
    "metrics": "/metrics",
}


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


def _graded(rng: random.Random) -> dict[str, Any]:
    """A grade, direction and probability as the pair model stores them."""
    grade = rng.choices(list(GRADE_WEIGHTS), weights=list(GRADE_WEIGHTS.values()))[0]
    direction = ("equivalent" if grade >= 4 else
                 rng.choice(["a_covers_b", "b_covers_a"]) if grade == 3 else "both_add")
    return {"grade": grade, "direction": direction, "probability": round(rng.random(), 4)}


def _insert_stories(conn: sa.Connection, articles: list[dict[str, Any]]) -> list[int]:
    """One story per ARTICLES_PER_STORY consecutive articles; returns each article's story."""
    groups = [articles[start:start + ARTICLES_PER_STORY]
              for start in range(0, len(articles), ARTICLES_PER_STORY)]
    conn.execute(schema.stories.insert(), [{
        "id": number + 1, "language": group[0]["language"],
        "first_day": min(a["published"] for a in group),
        "last_day": max(a["published"] for a in group), "headline": group[0]["title"],
        "outlets": sorted({a["source"] for a in group}), "article_count": len(group),
    } for number, group in enumerate(groups)])
    conn.execute(schema.story_articles.insert(), [
        {"article_id": a["id"], "story_id": number + 1}
        for number, group in enumerate(groups) for a in group])
    return [number + 1 for number, group in enumerate(groups) for _ in group]


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
        "topic": TOPICS[i % len(TOPICS)], "published": first_day + timedelta(
            days=(i // ARTICLES_PER_STORY) % 30 + (i % ARTICLES_PER_STORY) // 3),
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
        story_ids = _insert_stories(conn, articles)
        # Each input sentence (odd ids) is paired with the next sentence id, in its
        # article's story, graded.
        pair_rows = [{"run_id": run_id, "input_sentence_id": 2 * k + 1,
                      "target_sentence_id": 2 * k + 2, "score": round(rng.uniform(0.7, 1), 4),
                      "raw_score": rng.uniform(5, 30), "shared_pn": 2, "shared_cn": 3,
                      "story_id": story_ids[(2 * k) // SENTENCES_PER_ARTICLE],
                      **_graded(rng)} for k in range(pairs)]
        conn.execute(schema.pairs.insert(), pair_rows)
        conn.execute(schema.alignment_references.insert(),
                     [{"run_id": run_id, "sentence_id": 2 * k + 1} for k in range(pairs)])
        # Some pairs reviewed already, and the crawl runs the crawl page lists.
        conn.execute(schema.review_labels.insert(), [
            {"run_id": run_id, "pair_id": pair_id, "correct": rng.random() < 0.8,
             "labeled_at": now, "reviewer": "bench"}
            for pair_id in sorted(rng.sample(range(1, pairs + 1), min(LABELS, pairs)))])
        conn.execute(schema.crawl_runs.insert(), [
            {"started_at": now, "finished_at": now, "status": "finished",
             "parameters": {"outlets": OUTLETS}, "counts": {
                 "stored": 500, "duplicate_url": 20, "errors/http": 3,
                 "skipped/out_of_window": 40}} for _ in range(CRAWL_RUNS)])
    if store.engine.dialect.name == "postgresql":
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    return {"articles": n_articles, "sentences": len(rows), "pairs": pairs, "run_id": run_id}


def _serve(settings: Settings, port: int) -> None:
    """The dashboard as `parawire serve` runs it, in serve.workers processes (child process;
    no access log, as before workers were added)."""
    from parawire.dashboard import serve

    serve(settings, "bench", "127.0.0.1", port, log_level="warning")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _processes_cpu() -> Iterator[tuple[int, str, int, float]]:
    """Each process's id, name, parent and user + system CPU seconds so far (Linux /proc;
    none elsewhere)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().split(" (", 1)[1].rsplit(")", 1)
        except (OSError, ValueError, IndexError):
            continue
        fields = rest.split()
        yield (int(stat.parent.name), name, int(fields[1]),
               (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))


def _cpu_seconds(pid: int | None) -> float:
    """CPU seconds a process and its children (the server's workers) have used so far."""
    return sum(cpu for process, _, parent, cpu in _processes_cpu() if pid in (process, parent))


def _postgres_cpu_seconds() -> float:
    """CPU seconds used so far by every PostgreSQL process of this machine (the backends
    that answer the dashboard's queries among them)."""
    return sum(cpu for _, name, _, cpu in _processes_cpu() if name == "postgres")


def _machine_cpu_seconds() -> float:
    """Busy CPU seconds of the whole machine so far, all cores (Linux /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    busy = sum(int(value) for i, value in enumerate(fields) if i not in (3, 4))  # not idle
    return busy / os.sysconf("SC_CLK_TCK")


def _cpu_clocks(server: Server) -> dict[str, float]:
    """Where CPU time goes: the server, PostgreSQL, this process (the clients), the machine."""
    return {"server": server.cpu_seconds(), "database": _postgres_cpu_seconds(),
            "client": time.process_time(), "machine": _machine_cpu_seconds()}


class Server:
    """A dashboard server in a child process, listening on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.port = _free_port()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(settings, self.port))  # not daemonic: it starts workers

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

    def cpu_seconds(self) -> float:
        return _cpu_seconds(self.process.pid)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _get(http: HTTPConnection, path: str) -> int:
    """One GET on a keep-alive connection, its body read to the end; the status. (The
    standard library's client: httpx cost 7 ms of CPU a request, more than most requests
    cost the server, on the same two cores.)"""
    http.request("GET", path, headers={"Host": "127.0.0.1"})
    response = http.getresponse()
    response.read()
    return response.status


def _load(server: Server, path: str, clients: int, requests: int) -> dict[str, Any]:
    """`requests` GETs of `path` from `clients` concurrent keep-alive clients."""
    timings: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(count: int) -> None:
        http = HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            _get(http, path)  # warm the connection
            for _ in range(count):
                started = time.perf_counter()
                status = _get(http, path)
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    timings.append(elapsed)
                    statuses[status] = statuses.get(status, 0) + 1
        finally:
            http.close()

    shares = [requests // clients + (i < requests % clients) for i in range(clients)]
    before = _cpu_clocks(server)
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, shares))
    after = _cpu_clocks(server)
    p95 = _percentile(timings, 0.95)
    sent = len(timings) + clients
    return {"path": path, "requests": len(timings), "statuses": statuses,
            "p50_ms": round(statistics.median(timings), 1), "p95_ms": round(p95, 1),
            "max_ms": round(max(timings), 1), "meets_200ms_p95": p95 <= TARGET_P95_MS,
            **{f"{part}_cpu_ms_per_request": round(1000 * (after[part] - before[part]) / sent, 2)
               for part in before}}


def _first_overview(settings: Settings, repeat: int) -> dict[str, Any]:
    """Milliseconds from a fresh server listening to its first overview's answer (a fresh
    server each time)."""
    timings = []
    for _ in range(repeat):
        with Server(settings) as server:
            http = HTTPConnection("127.0.0.1", server.port, timeout=120)
            started = time.perf_counter()
            status = _get(http, "/api/overview")
            timings.append((time.perf_counter() - started) * 1000)
            http.close()
            assert status == 200, status
    return {"path": "/api/overview (first after a start)", "requests": repeat,
            "p50_ms": round(statistics.median(timings), 1), "max_ms": round(max(timings), 1),
            "p95_ms": round(_percentile(timings, 0.95), 1),
            "meets_200ms_p95": _percentile(timings, 0.95) <= TARGET_P95_MS}


def _align_writer(url: str, sentences: int, stop: Any, written: Any) -> None:
    """Record a new alignment run's pairs batch after batch, each batch's references new to
    the run (as `parawire align` records them), until told to stop (child)."""
    store = open_store(url)
    run = store.find_or_start_alignment_run(f"bench-writer-{time.time()}", {"beta": 0.7})
    rng = random.Random(11)
    references = list(range(1, sentences, 2))
    rng.shuffle(references)
    for start in range(0, len(references), WRITER_BATCH):
        if stop.is_set():
            break
        refs = sorted(references[start:start + WRITER_BATCH])
        store.record_references(run.id, refs, [
            Pair(run.id, ref, ref + 1, rng.uniform(0.7, 1), 10.0, 2, 3, **_graded(rng))
            for ref in refs])
        with written.get_lock():
            written.value += len(refs)
        time.sleep(0.05)


def _probe(store: Store, run: int) -> dict[str, Any]:
    """The values the CASES paths are formatted with."""
    with store.engine.connect() as conn:
        probe = conn.execute(sa.select(schema.sentences.c.text, schema.sentences.c.proper_nouns,
                                       schema.sentences.c.source, schema.sentences.c.article_id)
                             .where(schema.sentences.c.id == 1001)).one()
    # `word`: one of 20k words, in about 80 of the 200k sentences.
        story = conn.execute(sa.select(schema.story_articles.c.story_id).where(
            schema.story_articles.c.article_id == probe.article_id)).scalar_one()
        day = conn.execute(sa.select(schema.stories.c.first_day).where(
            schema.stories.c.id == story)).scalar_one()
    return {"run": run, "word": probe.text.split()[2], "name": probe.proper_nouns[0],
            "outlet": probe.source, "article": probe.article_id, "story": story,
            "day": day.isoformat()}


@contextmanager
def _store_url(kind: str, pg_url: str) -> Iterator[str]:
    """The store URL to bench `kind` on: SQLite in a temporary folder, or a new database on
    the PostgreSQL server of `pg_url`, dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{tempfile.mkdtemp(prefix='parawire-bench-dash-')}/parawire.db"
        return
    name = f"parawire_dashboard_bench_{os.getpid()}"
    admin = sa.create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield sa.engine.make_url(pg_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def bench_store(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Build a store at `url`, then time every case on it (idle and while aligning)."""
    settings = load_settings(data_dir=Path(tempfile.mkdtemp(prefix="parawire-bench-dash-")),
                             store={"url": url}, serve={"workers": args.workers})
    store = open_store(settings.store_url)
    dialect = store.engine.dialect.name
    started = time.perf_counter()
    built = build_store(store, args.pairs)
    build_s = time.perf_counter() - started
    print(f"{dialect}: built {built} in {build_s:.0f} s", file=sys.stderr)
    probe = _probe(store, built["run_id"])
    cases = {name: CASES[name].format(**probe) for name in args.cases}
    results: dict[str, dict[str, Any]] = {
        # The very first start counts everything (nothing saved yet); later ones answer
        # from the saved count while they recount.
        "first_overview_never_counted": _first_overview(settings, 1),
        "first_overview_after_restart": _first_overview(settings, args.first)}
    for name in ("first_overview_never_counted", "first_overview_after_restart"):
        print(dialect, name, results[name], file=sys.stderr)
    writer_exit = None
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
                results[f"{phase}/{name}"] = _load(server, path, args.clients, args.requests)
                print(dialect, phase, name, results[f"{phase}/{name}"], file=sys.stderr)
            if writer is not None:
                stop.set()
                writer.join(60)
                writer_exit = writer.exitcode
                results["aligning/pairs_written_meanwhile"] = {"pairs": written.value}
    store.engine.dispose()
    timed = [r for r in results.values() if "p95_ms" in r]
    return {
        "corpus": built, "build_seconds": round(build_s, 1), "results": results,
        "all_meet_target": all(r["meets_200ms_p95"] for r in timed),
        "errors": sum(n for r in timed for code, n in r.get("statuses", {}).items()
                      if code >= 400) + (writer_exit != 0),
        "writer_exit_code": writer_exit,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=100, help="per request and phase")
    parser.add_argument("--first", type=int, default=3, help="fresh servers for the first "
                                                               "overview")
    parser.add_argument("--workers", type=int, default=ServeConfig().workers,
                        help="server processes [default: serve.workers]")
    parser.add_argument("--stores", default=",".join(STORES),
                        help="comma-separated, of: " + ", ".join(STORES))
    parser.add_argument("--pg-url", default=os.environ.get("PARAWIRE_TEST_PG_URL", ""),
                        help="a PostgreSQL server to create the bench database on "
                             "(default: $PARAWIRE_TEST_PG_URL)")
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated names of CASES to time (default: all)")
    args = parser.parse_args()
    args.cases = [name.strip() for name in args.cases.split(",") if name.strip()]
    if not set(args.cases) <= set(CASES):
        sys.exit(f"dashboard_latency: unknown --cases {sorted(set(args.cases) - set(CASES))}; "
                 f"known: {', '.join(CASES)}")
    stores = [kind.strip() for kind in args.stores.split(",") if kind.strip()]
    unknown = [kind for kind in stores if kind not in STORES]
    if unknown or not stores:
        sys.exit(f"dashboard_latency: --stores takes {', '.join(STORES)}, not {args.stores!r}")
    if "postgresql" in stores and not args.pg_url:
        sys.exit("dashboard_latency: PostgreSQL needs --pg-url or $PARAWIRE_TEST_PG_URL (run "
                 "under scripts/with-services.sh), or pass --stores sqlite")
    by_store = {}
    for kind in stores:
        with _store_url(kind, args.pg_url) as url:
            by_store[kind] = bench_store(url, args)
    report("dashboard_latency", {
        "pairs": args.pairs, "clients": args.clients, "requests_per_case": args.requests,
        "server_workers": args.workers,
        "client": "http.client keep-alive connections over loopback to uvicorn in a child "
                  "process",
        "load_average_at_end": os.getloadavg(), "cpus": os.cpu_count(),
        "target_p95_ms": TARGET_P95_MS, "stores": by_store,
        "all_meet_target": all(result["all_meet_target"] for result in by_store.values()),
        "errors": sum(result["errors"] for result in by_store.values()),
    })


if __name__ == "__main__":
    main()
