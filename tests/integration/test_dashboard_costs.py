"""What the dashboard's requests cost the store, on SQLite and PostgreSQL: round trips of a
review sample, the indexes the overview's counts read, a precision counted in the database,
and an overview (and the crawl page) rendered and counted no more often than it changes. (Timings are measured
in bench/dashboard_latency.py, never here.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from anyio import to_thread
from fastapi.testclient import TestClient

from parawire.config import load_settings
from parawire.dashboard import create_app, pages
from parawire.dashboard import overview as overview_module
from parawire.dashboard import runs as runs_module
from parawire.dashboard.overview import OverviewCache
from parawire.records import Pair, PairQuery
from parawire.store import Store, schema
from parawire.store import pair_search as pair_search_module
from parawire.store import review as review_module
from parawire.store.overview import _volume_queries
from parawire.store.pair_search import search_select
from tests.factories import make_sentence, store_annotated_article


@contextmanager
def _statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store sends while the block runs."""
    sent: list[str] = []

    def note(conn, cursor, statement, parameters, context, executemany) -> None:
        sent.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)


def _run_with_pairs(store: Store, count: int) -> tuple[int, list[int]]:
    sentences = [make_sentence(0, 0, ["rossi"], ["budget"], text=f"Sentence number {k}.")
                 for k in range(count + 1)]
    ids = store_annotated_article(store, "http://news.test/costs", sentences)
    run = store.find_or_start_alignment_run("costs", {})
    store.record_references(run.id, ids[:count], [
        Pair(run.id, ids[k], ids[k + 1], 0.9, 9.0, 1, 1) for k in range(count)])
    with store.engine.connect() as conn:
        pair_ids = list(conn.execute(sa.select(schema.pairs.c.id).where(
            schema.pairs.c.run_id == run.id).order_by(schema.pairs.c.id)).scalars())
    return run.id, pair_ids


def test_a_review_sample_is_one_round_of_seeks_or_two_and_sorts_nothing_at_random(store):
    """The random seeks go in one SELECT with the run's id range (the old sampler sent one
    per draw: 31 for a sample of 10; then the range and the seeks apart), a second round
    only for draws that fell on the same pair, and no query orders the run's pairs by
    random()."""
    run, pair_ids = _run_with_pairs(store, 200)
    for pair_id in pair_ids[:10]:
        store.label_pair(run, pair_id, True)
    with _statements(store) as sent:
        sample = store.sample_unlabeled_pairs(run, 10)
    assert 1 <= len(sent) <= 2 and all("offsets" in statement for statement in sent), sent
    assert not any("random" in statement.lower() for statement in sent)
    assert len(sample) == len(set(sample)) and 1 <= len(sample) <= 10
    assert set(sample) <= set(pair_ids[10:])  # unlabeled pairs of the run only


def test_each_review_seek_stops_at_the_first_unlabeled_pair(store):
    """The seeks' plan: an index range scan of the run's pairs from the start, anti-joined
    to the labels, cut at the first row. The old `review_labels.id IS NULL` kept a left
    join on PostgreSQL, estimated one row after it, and sorted every pair from the start
    on (36 ms for three seeks at 20k pairs; 0.3 ms now). The seeks are one subquery over a
    table of starts, planned once however many seeks a sample takes, and each reads the
    labels from its start on (merged from the lowest, it read most labels at each seek)."""
    run, pair_ids = _run_with_pairs(store, 20)
    for pair_id in pair_ids[:5]:
        store.label_pair(run, pair_id, True)
    # Offsets from the run's lowest id: 0 starts at the first pair, labeled; the other at
    # the eleventh.
    seeks = review_module._draws(2).params(run_id=run, offset_0=0,
                                           offset_1=pair_ids[10] - pair_ids[0])
    compiled = str(seeks.compile(dialect=store.engine.dialect,
                                 compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "sqlite":
            plan = "\n".join(str(row[-1]) for row in
                             conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled))
            assert "SEARCH pairs USING COVERING INDEX ix_pairs_run_id_id" in plan, plan
            assert "SCAN pairs" not in plan and "TEMP B-TREE" not in plan, plan
        else:
            conn.exec_driver_sql("SET enable_seqscan = off")  # as on a large store
            plan = "\n".join(row[0] for row in conn.exec_driver_sql("EXPLAIN " + compiled))
            assert plan.count("Anti Join") == 1, plan
            assert "Sort" not in plan, plan
            # The labels are read from the seek's start on, not from the lowest labeled id.
            labels = plan[plan.index("on review_labels"):]
            assert "(pair_id >= " in labels.split("->")[0], plan
        assert sorted(conn.execute(seeks).scalars()) == [pair_ids[5], pair_ids[10]]


def test_precision_per_grade_reads_each_labelled_pair_by_its_key(store):
    """The labels' pairs are looked up one by one (a correlated subquery on the pairs' key):
    as a join, PostgreSQL hashed every pair of the store to count 500 labels (27.5 ms at
    100k pairs; 3.1 ms now)."""
    run, pair_ids = _run_with_pairs(store, 6)
    for pair_id in pair_ids[:4]:
        store.label_pair(run, pair_id, pair_id % 2 == 0)
    compiled = str(review_module._label_counts_by_grade().params(run_id=run).compile(
        dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "sqlite":
            plan = "\n".join(str(row[-1]) for row in
                             conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled))
            assert "CORRELATED SCALAR SUBQUERY" in plan, plan
            assert "SEARCH pairs USING INTEGER PRIMARY KEY (rowid=?)" in plan, plan
        else:
            plan = "\n".join(row[0] for row in conn.exec_driver_sql("EXPLAIN " + compiled))
            assert "SubPlan" in plan and "Join" not in plan, plan
    right = sum(1 for pair_id in pair_ids[:4] if pair_id % 2 == 0)
    assert store.label_counts_by_grade(run) == {None: (right, 4 - right)}


def test_a_mostly_labeled_run_still_gives_its_last_unlabeled_pairs(store):
    run, pair_ids = _run_with_pairs(store, 30)
    for pair_id in pair_ids[:-2]:
        store.label_pair(run, pair_id, pair_id % 2 == 0)
    with _statements(store) as sent:
        sample = store.sample_unlabeled_pairs(run, 10)
    assert sorted(sample) == pair_ids[-2:]
    assert len(sent) <= 3 and not any("random" in s.lower() for s in sent)
    right = sum(1 for pair_id in pair_ids[:-2] if pair_id % 2 == 0)
    assert store.label_counts_by_grade(run) == {None: (right, len(pair_ids) - 2 - right)}
    assert store.label_counts_by_grade(run + 1) == {}


def test_run_volumes_join_sentences_through_the_volume_index(store):
    """A run's references and pairs get their sentences' day, outlet, topic and language
    from ix_sentences_id_volume (migration 0015), never from the sentence rows: on
    PostgreSQL (told to use an index wherever one can answer, as on a store too large to
    scan) the old plan read sentences_pkey and the table."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite's planner looks sentences up by rowid whatever the indexes")
    _run_with_pairs(store, 5)
    with store.engine.connect() as conn:
        conn.exec_driver_sql("SET enable_seqscan = off")
        for metric in ("references", "pairs"):
            compiled = str(_volume_queries(1)[metric].compile(
                dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
            plan = "\n".join(row[0] for row in conn.exec_driver_sql("EXPLAIN " + compiled))
            assert "Index Only Scan using ix_sentences_id_volume" in plan, plan
            assert "sentences_pkey" not in plan, plan


def test_a_grade_and_direction_no_pair_has_is_looked_up_not_scanned_for(store):
    """Grade and direction are correlated (grade 5 is "equivalent"): with migration 0017's
    statistics PostgreSQL knows a combination no pair has and reads the (direction, grade,
    id) index for it; before, it scanned every pair backwards by id."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("extended statistics are PostgreSQL's")
    count = 3000
    sentences = [make_sentence(0, 0, ["rossi"], ["budget"], text=f"Sentence number {k}.")
                 for k in range(count + 1)]
    ids = store_annotated_article(store, "http://news.test/grades", sentences)
    run = store.find_or_start_alignment_run("grades", {})
    kinds = [(5, "equivalent"), (4, "equivalent"), (3, "a_covers_b"), (2, "both_add")]
    store.record_references(run.id, ids[:count], [
        Pair(run.id, ids[k], ids[k + 1], 0.9, 9.0, 1, 1, grade=kinds[k % 4][0],
             direction=kinds[k % 4][1]) for k in range(count)])
    with store.engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE pairs")
        select = search_select(PairQuery(min_grade=5, direction="both_add"), "postgresql")
        compiled = str(select.compile(dialect=store.engine.dialect,
                                      compile_kwargs={"literal_binds": True}))
        plan = "\n".join(row[0] for row in conn.exec_driver_sql("EXPLAIN " + compiled))
    assert "ix_pairs_direction_grade_id" in plan, plan
    assert "Backward using pairs_pkey" not in plan, plan


def test_the_overview_is_serialised_once_per_count(store):
    _run_with_pairs(store, 3)
    cache = OverviewCache(store)
    renders: list[int] = []

    def render(overview) -> bytes:
        renders.append(overview["totals"]["pairs"])
        return str(overview["totals"]).encode()

    first = cache.rendered("test", render)
    assert cache.rendered("test", render) is first and renders == [3]
    store_annotated_article(store, "http://news.test/more", [
        make_sentence(0, 0, ["x"], ["y"], text="One more sentence.")])
    cache._next_count = 0  # no pause after the first count, for the test
    cache.rendered("test", render)  # the last count marked refreshing, or the new one
    cache._refresh.join()
    latest = cache.rendered("test", render)
    assert cache.rendered("test", render) is latest
    assert latest == str(cache.get()["totals"]).encode() and len(renders) <= 3


def test_recounts_pause_while_rows_keep_coming(store, monkeypatch):
    """After a count, a change starts no recount before RECOUNT_PAUSE times its duration:
    the request gets the last count, marked refreshing."""
    monkeypatch.setattr(overview_module, "RECOUNT_PAUSE", 10_000)
    cache = OverviewCache(store)
    assert not cache.get()["refreshing"]
    counted = cache._refresh
    store_annotated_article(store, "http://news.test/paused", [
        make_sentence(0, 0, ["x"], ["y"], text="Added during the pause.")])
    body = cache.get()
    assert body["refreshing"] and body["totals"]["articles"] == 0
    assert cache._refresh is counted  # no new count started


def test_a_store_never_counted_answers_its_totals_while_the_first_count_runs(
        store, monkeypatch):
    """The first request on a never-counted store waits for the count at most `first_wait`
    seconds, then gets the totals read at once, without breakdowns, marked refreshing; the
    count, once done, is what later requests get."""
    run, _ = _run_with_pairs(store, 3)
    counting = threading.Event()
    slow_count = overview_module.compute_overview

    def held_count(counted_store):
        counting.wait(30)
        return slow_count(counted_store)

    monkeypatch.setattr(overview_module, "compute_overview", held_count)
    cache = OverviewCache(store, first_wait=0.05)
    first = cache.get()
    assert first["refreshing"] and first["run"] == run
    assert first["totals"] == {"articles": 1, "sentences": 4, "references": 3, "pairs": 3}
    assert first["runs"] == {str(run): {"references": 3, "pairs": 3}}
    assert all(not keys for by_metric in first["breakdowns"].values()
               for keys in by_metric.values())
    counting.set()
    cache._refresh.join(30)
    counted = cache.get()
    assert not counted["refreshing"] and counted["totals"] == first["totals"]
    assert counted["breakdowns"]["outlet"]["sentences"]


def test_one_fingerprint_query_at_a_time(store):
    """While one request reads the fingerprint, the others take the last one read."""
    cache = OverviewCache(store, check_seconds=0)
    cache.get()
    last = cache._checked
    with cache._checking, _statements(store) as sent:  # another request is reading it
        result: list[dict] = []
        reader = threading.Thread(target=lambda: result.append(cache.get()))
        reader.start()
        reader.join(10)
    assert result and not reader.is_alive()
    assert sent == [] and cache._checked == last


def test_the_crawl_page_is_rendered_again_only_when_its_runs_change(store, tmp_path):
    settings = load_settings(data_dir=tmp_path / "data")
    client = TestClient(create_app(settings, token="t", store=store), base_url="http://localhost")
    first = store.start_crawl_run({"since": "2026-03-01", "until": "2026-03-02"})
    store.finish_crawl_run(first, {"stored": 3})
    page = client.get("/crawl").text
    assert f'data-run-id="{first}"' in page
    kept = pages._RENDERED["crawl"]
    assert client.get("/crawl").text == page and pages._RENDERED["crawl"] is kept
    second = store.start_crawl_run({"since": "2026-03-03", "until": "2026-03-04"})
    store.finish_crawl_run(second, {"stored": 5, "errors/http": 1})
    page = client.get("/crawl").text
    assert f'data-run-id="{second}"' in page and f'data-run-id="{first}"' in page


def test_requests_are_answered_by_the_configured_number_of_threads(store, tmp_path):
    """dashboard.request_threads bounds the threads answering at once (anyio's default of 40
    made 20 concurrent requests fight for the interpreter)."""
    settings = load_settings(data_dir=tmp_path, dashboard={"request_threads": 3})
    with TestClient(create_app(settings, token="t", store=store),
                    base_url="http://127.0.0.1") as client:
        limit = client.portal.call(lambda: to_thread.current_default_thread_limiter().total_tokens)
        assert limit == 3
        assert client.get("/health").status_code == 200


def test_index_statistics_are_read_at_most_every_check_interval(store, tmp_path, monkeypatch):
    """The crawl page and /api/index share one read of the index's statistics per
    dashboard.overview_check_seconds."""
    settings = load_settings(data_dir=tmp_path, dashboard={"overview_check_seconds": 3600})
    client = TestClient(create_app(settings, token="t", store=store), base_url="http://127.0.0.1")
    reads = []
    real = runs_module.open_index
    monkeypatch.setattr(runs_module, "open_index", lambda s: reads.append(s) or real(s))
    assert client.get("/api/index").json()["stats"]["total"] == 0
    assert client.get("/crawl").status_code == 200 and client.get("/api/index").status_code == 200
    assert len(reads) == 1


@pytest.mark.parametrize("seconds, counts", [(3600, 1), (0, 3)])
def test_metrics_are_counted_at_most_every_check_interval(store, tmp_path, monkeypatch,
                                                          seconds, counts):
    """/metrics reads the store's row counts once per dashboard.overview_check_seconds
    (20 clients asking at once otherwise each counted every table)."""
    settings = load_settings(data_dir=tmp_path, dashboard={"overview_check_seconds": seconds})
    client = TestClient(create_app(settings, token="t", store=store), base_url="http://127.0.0.1")
    reads = []
    real = store.counts
    monkeypatch.setattr(store, "counts", lambda: reads.append(1) or real())
    first = client.get("/metrics").text
    assert 'parawire_rows{table="pairs"} 0.0' in first
    assert all(client.get("/metrics").text == first for _ in range(2))
    assert len(reads) == counts


@pytest.mark.parametrize("window", [4, 2000])
def test_grade_and_direction_searches_page_through_what_a_filter_by_hand_finds(
        store, monkeypatch, window):
    """SQLite's grade and direction searches look among the newest pairs first and ask the
    grade index only when that window holds less than a page: with a window of 4, both
    ways run. Each search, paged to its end, gives exactly the pairs a filter by hand
    keeps, newest first (PostgreSQL: the plain search, the same oracle)."""
    monkeypatch.setattr(pair_search_module, "NEWEST_WINDOW", window)
    count = 60
    sentences = [make_sentence(0, 0, ["rossi"], ["budget"], text=f"Sentence number {k}.")
                 for k in range(count + 1)]
    ids = store_annotated_article(store, "http://news.test/window", sentences)
    run = store.find_or_start_alignment_run("window", {})
    # Rare kinds among the newest pairs, common ones among the oldest.
    kinds = [(5, "equivalent") if k % 7 == 0 else (3, "b_covers_a") if k > 40 else
             (3, "a_covers_b") if k % 2 else (1, "both_add") for k in range(count)]
    store.record_references(run.id, ids[:count], [
        Pair(run.id, ids[k], ids[k + 1], 0.9, 9.0, 1, 1, grade=grade, direction=direction)
        for k, (grade, direction) in enumerate(kinds)])
    every = {listing.id: listing for listing in store.search_pairs(PairQuery(limit=100))[0]}
    for filters in ({"min_grade": 3}, {"min_grade": 3, "direction": "a_covers_b"},
                    {"min_grade": 5}, {"direction": "b_covers_a"},
                    {"min_grade": 2, "direction": "both_add"}, {"min_grade": 3, "run": run.id}):
        expected = sorted((i for i, p in every.items()
                           if p.grade is not None and p.grade >= filters.get("min_grade", 0)
                           and filters.get("direction", p.direction) == p.direction),
                          reverse=True)
        found, before = [], None
        while True:
            page, before = store.search_pairs(PairQuery(**filters, before=before, limit=3))
            found += [p.id for p in page]
            if before is None:
                break
        assert found == expected, filters
