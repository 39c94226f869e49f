"""The store's contract, run on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import date, datetime

import pytest
import sqlalchemy as sa

from parawire.records import (
    ArticleOutcome,
    Collocation,
    CollocationCounts,
    FingerprintMatch,
    Pair,
)
from parawire.store import BatchOverlap, open_store
from tests.factories import make_article as article
from tests.factories import make_sentence


def test_migrations_are_idempotent(store):
    store.migrate()
    store.migrate()
    assert store.counts()["articles"] == 0


def test_articles_dedup_by_url_canonical_url_and_content(store):
    assert store.add_article(article(1)) is ArticleOutcome.STORED
    assert store.add_article(article(1)) is ArticleOutcome.DUPLICATE_URL
    again = article(2, canonical_url="http://news.test/a1")
    assert store.add_article(again) is ArticleOutcome.DUPLICATE_URL
    copy = article(3, text="Body of article 1 about the council budget.")
    assert store.add_article(copy) is ArticleOutcome.DUPLICATE_CONTENT
    assert store.counts()["articles"] == 1
    assert store.known_urls() == {"http://news.test/a1"}


def test_annotations_round_trip_and_mark_progress(store):
    first, second = article(1), article(2)
    store.add_article(first)
    store.add_article(second)
    pending = [a.id for batch in store.articles_to_annotate() for a in batch]
    assert pending == [first.id, second.id]
    sentence = make_sentence(None, first.id, ["elena varga", "port alder"], ["budget", "tram"])
    sentence.collocations = [Collocation("the tram line", "the tram line", "DET NOUN NOUN")]
    store.save_annotations(first.id, [sentence])
    store.save_annotations(first.id, [sentence])  # re-annotating replaces, never doubles
    assert [a.id for batch in store.articles_to_annotate() for a in batch] == [second.id]
    (loaded,) = [s for batch in store.iter_sentences() for s in batch]
    assert loaded.proper_nouns == ["elena varga", "port alder"]
    assert loaded.entities == [("elena varga", "PERSON"), ("port alder", "PERSON")]
    assert loaded.collocations[0].pos == "DET NOUN NOUN"
    assert loaded.published == date(2026, 3, 2)
    assert store.sentences_by_id([loaded.id])[loaded.id].text == sentence.text


def test_alignment_run_is_resumed_and_pairs_are_not_doubled(store):
    a1, a2 = article(1), article(2)
    store.add_article(a1)
    store.add_article(a2)
    store.save_annotations(a1.id, [make_sentence(None, a1.id, ["x"], ["y"])])
    store.save_annotations(a2.id, [make_sentence(None, a2.id, ["x"], ["y"])])
    s1, s2 = [s.id for batch in store.iter_sentences() for s in batch]
    run = store.find_or_start_alignment_run("key-1", {"beta": 0.7})
    pair = Pair(run.id, s1, s2, 0.8, 3.2, 1, 1)
    store.record_references(run.id, [s1], [pair], {"references": 1, "pairs_built": 1})
    better = Pair(run.id, s1, s2, 1.0, 3.0, 1, 1)
    with pytest.raises(BatchOverlap):  # s1 is stored already: the batch stores nothing
        store.record_references(run.id, [s2, s1], [better], {"references": 2})
    assert store.done_references(run.id) == {s1}
    store.record_references(run.id, [s2], [better, pair], {"references": 1, "pairs_built": 2})
    assert store.done_references(run.id) == {s1, s2}
    assert store.done_references(run.id, among=[s2, 999]) == {s2}
    assert store.pairs(run.id) == [better]  # found twice: the higher score is kept
    assert store.stored_batch_counts(run.id) == {"references": 2, "pairs_built": 3}
    store.finish_alignment_run(run.id, {"pairs": 1})
    again = store.find_or_start_alignment_run("key-1", {"beta": 0.7})
    assert again.id == run.id and again.status == "running"
    other = store.find_or_start_alignment_run("key-2", {"beta": 0.5})
    assert other.id != run.id
    (row,) = store.pair_rows(run.id)
    assert (row.input.id, row.target.id) == (s1, s2)


def test_review_labels_sample_only_unlabeled_pairs_and_keep_one_verdict_per_pair(store):
    ids = []
    for n in range(4):
        a = article(n)
        store.add_article(a)
        store.save_annotations(a.id, [make_sentence(None, a.id, ["x"], ["y"])])
        ids += [s.id for batch in store.iter_sentences(after_id=max(ids, default=0))
                for s in batch]
    run = store.find_or_start_alignment_run("key-1", {"beta": 0.7})
    other = store.find_or_start_alignment_run("key-2", {"beta": 0.5})
    store.record_references(run.id, ids, [Pair(run.id, ids[0], t, 0.9, 1, 1, 1)
                                          for t in ids[1:]])
    store.record_references(other.id, ids[:1], [Pair(other.id, ids[0], ids[1], 0.9, 1, 1, 1)])
    everything = store.sample_unlabeled_pairs(run.id, 10)
    assert len(everything) == len(set(everything)) == 3
    assert len(store.sample_unlabeled_pairs(run.id, 2)) == 2
    (foreign,) = store.sample_unlabeled_pairs(other.id, 10)
    assert foreign not in everything
    first, second, third = everything
    assert store.label_pair(run.id, first, True) and store.label_pair(run.id, second, True)
    assert store.label_pair(run.id, second, False)  # a changed verdict replaces the old one
    assert not store.label_pair(run.id, foreign, True)  # not a pair of this run
    assert store.sample_unlabeled_pairs(run.id, 10) == [third]
    labels = store.review_labels(run.id)
    assert [(label.pair_id, label.correct) for label in labels] == [(first, True),
                                                                    (second, False)]
    assert all(label.labeled_at is not None for label in labels)
    assert store.review_labels(other.id) == []
    # The sampled ids read back in the order asked, an unknown id left out, none for none.
    shown = store.pairs_by_id([third, foreign + 1000, first, foreign])
    assert [(pair.id, pair.run_id) for pair in shown] == [(third, run.id), (first, run.id),
                                                          (foreign, other.id)]
    assert shown[0].input.sentence_id == ids[0] and store.pairs_by_id([]) == []


def test_crawl_runs_record_counts(store):
    run_id = store.start_crawl_run({"since": "2026-03-01"})
    store.finish_crawl_run(run_id, {"stored": 3, "errors/http_404": 1})
    (run,) = store.crawl_runs()
    assert run.status == "finished" and run.counts == {"stored": 3, "errors/http_404": 1}


def test_unreachable_server_is_a_one_line_error():
    from parawire.errors import ParawireError

    with pytest.raises(ParawireError, match="cannot reach the store") as caught:
        open_store("postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=2")
    assert "\n" not in str(caught.value)


def test_syndicated_copies_are_stored_with_a_pointer_to_the_first(store):
    from parawire.crawler import store_article
    from parawire.demo import load_articles

    story = "\n".join(load_articles()[0].paragraphs)
    first = article(1, text=story)
    wire_copy = article(2, text="PORT ALDER (Coastline Wire) - " + story, source="outlet-b")
    second_copy = article(3, text=story + " Reporting by staff.", source="outlet-c")
    other = article(4, text="\n".join(load_articles()[1].paragraphs))
    outcomes = [store_article(store, a) for a in (first, wire_copy, second_copy, other)]
    assert outcomes == [ArticleOutcome.STORED, ArticleOutcome.NEAR_DUPLICATE,
                        ArticleOutcome.NEAR_DUPLICATE, ArticleOutcome.STORED]
    assert (wire_copy.syndicated_of, second_copy.syndicated_of) == (first.id, first.id)
    assert store.syndicated_articles([first.id, wire_copy.id, second_copy.id, other.id]) == {
        wire_copy.id, second_copy.id}


def test_fingerprints_are_read_after_an_id_in_id_order(store):
    first, copy, plain, last = article(1), article(2), article(3), article(4)
    store.add_article(first, fingerprint=0x0102)
    copy.syndicated_of = first.id
    store.add_article(copy, fingerprint=0xFFFF_0000_0000_0103)
    store.add_article(plain)  # stored without a fingerprint: never read as one
    with store.transaction():
        store.add_article(last, fingerprint=0)
        assert store.fingerprints_after(copy.id) == [FingerprintMatch(last.id, 0, None)]
    assert store.fingerprints_after(0) == [
        FingerprintMatch(first.id, 0x0102, None),
        FingerprintMatch(copy.id, 0xFFFF_0000_0000_0103, first.id),
        FingerprintMatch(last.id, 0, None)]
    assert store.fingerprints_after(last.id) == []
    assert [store.count_fingerprints(n) for n in (0, first.id, plain.id, last.id)] == [0, 1, 2, 3]


def test_near_duplicates_see_this_transaction_and_late_commits_of_other_writers(store):
    from parawire.crawler.dedup import NearDuplicates

    near = NearDuplicates(store)
    near.refresh()
    assert near.original_of(0x0F0F) is None  # an empty store
    first, copy = article(1), article(2)
    store.add_article(first, fingerprint=0x0F0F)
    copy.syndicated_of = first.id
    store.add_article(copy, fingerprint=0x0F0F ^ 0b111)
    assert near.original_of(0x0F0F ^ 0b1111111) == first.id  # 7 bits off the original
    assert near.original_of(0x0F0F ^ 0b111 ^ 0x1F000) == first.id  # 8 bits off it, 5 off its copy
    assert near.original_of(0x0F0F ^ 0xFF00) is None  # 8 bits off the original, 11 off its copy
    with store.transaction():
        third = article(3)
        store.add_article(third, fingerprint=0xAB00_0000_0000_0000)
        assert near.original_of(0xAB00_0000_0000_0001) == third.id
    # Another writer's article committed after a newer one was read: found at the next
    # refresh, which reads everything again.
    late, newer = article(4), article(5)
    store.add_article(late, fingerprint=0x5500_0000_0000_0000)
    store.add_article(newer, fingerprint=0x0077_0000_0000_0000)
    with store.engine.begin() as conn:  # as if `late` had been committed only now
        conn.execute(sa.text("UPDATE articles SET simhash = NULL WHERE id = :id"),
                     {"id": late.id})
    assert near.original_of(0x0077_0000_0000_0001) == newer.id
    with store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE articles SET simhash = '5500000000000000' WHERE id = :id"),
                     {"id": late.id})
    assert near.original_of(0x5500_0000_0000_0001) is None  # not read yet
    near.refresh()
    assert near.original_of(0x5500_0000_0000_0001) == late.id
    assert near.original_of(0x0077_0000_0000_0001) == newer.id


def _migrate(store, to: str, downgrade: bool = False) -> None:
    """Upgrade or downgrade the store's schema to revision `to`."""
    from alembic import command
    from alembic.config import Config

    from parawire.store.store import ALEMBIC_INI

    config = Config(str(ALEMBIC_INI))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if downgrade else command.upgrade)(config, to)


def test_the_fingerprint_band_columns_go_and_come_back_with_their_values(store):
    def columns() -> set[str]:
        return {c["name"] for c in sa.inspect(store.engine).get_columns("articles")}

    first = article(1)
    store.add_article(first, fingerprint=0x0807_0605_0403_0201)
    _migrate(store, "0009", downgrade=True)
    bands = [f"simhash_b{i}" for i in range(8)]
    assert set(bands) <= columns()
    with store.engine.connect() as conn:
        row = conn.execute(sa.text(f"SELECT simhash, {', '.join(bands)} FROM articles")).one()
    assert tuple(row) == ("0807060504030201", 1, 2, 3, 4, 5, 6, 7, 8)
    _migrate(store, "head")
    assert not set(bands) & columns()
    assert store.fingerprints_after(0) == [FingerprintMatch(first.id, 0x0807_0605_0403_0201, None)]


def test_names_stored_before_the_entity_names_table_are_found_after_it(store):
    """Migration 0018 fills the names table (PostgreSQL) from the sentences already stored
    (a name listed twice in a sentence is linked once)."""
    from parawire.records import Pair, PairQuery
    from tests.factories import store_annotated_article

    _migrate(store, "0017", downgrade=True)
    ids = store_annotated_article(store, "http://news.test/old", [
        make_sentence(0, 0, ["ada kestrel", "ada kestrel"], ["mill"]),
        make_sentence(0, 0, ["tomas rook"], ["mill"])])
    run = store.find_or_start_alignment_run("k", {})
    store.record_references(run.id, ids, [Pair(run.id, ids[0], ids[1], 0.9, 9, 1, 1)])
    _migrate(store, "head")
    for name in ("kestrel", "ADA K", "rook"):
        pairs, _ = store.search_pairs(PairQuery(entity=name))
        assert [pair.input.sentence_id for pair in pairs] == [ids[0]], name
    assert store.search_pairs(PairQuery(entity="heron"))[0] == []


def test_writers_storing_the_same_new_names_at_once_link_every_sentence(store):
    """Four annotators at once store sentences naming the same new people, two in the
    reverse order of the other two (on PostgreSQL each names table row is taken in the
    order given: the writers may deadlock, and the store retries the victim)."""
    from parawire.records import Pair, PairQuery

    names = [f"keeper {n}" for n in range(24)]
    failures: list[Exception] = []
    stored: list[int] = []

    def annotate(writer: int) -> None:
        ordered = names if writer % 2 == 0 else names[::-1]
        try:
            for n in range(6):
                news = article(100 * writer + n)
                store.add_article(news)
                store.save_annotations(news.id, [
                    make_sentence(None, news.id, ordered[(n + j) % 24: (n + j) % 24 + 2], ["x"],
                                  position=j) for j in range(8)])
                stored.append(news.id)
        except Exception as exc:  # reported below, in the test's thread
            failures.append(exc)

    writers = [threading.Thread(target=annotate, args=(k,)) for k in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert failures == [] and len(stored) == 24
    ids = [s.id for batch in store.iter_sentences() for s in batch]
    run = store.find_or_start_alignment_run("k", {})
    store.record_references(run.id, ids, [Pair(run.id, a, b, 0.9, 1, 1, 1)
                                          for a, b in zip(ids[::2], ids[1::2], strict=True)])
    holders = {i for i, s in store.sentences_by_id(ids).items() if "keeper 7" in s.proper_nouns}
    found, _ = store.search_pairs(PairQuery(entity="keeper 7", limit=100))
    assert {side for pair in found for side in (pair.input.sentence_id, pair.target.sentence_id)
            if side in holders} == holders


def _end_pooled_sessions(store) -> None:
    """Have PostgreSQL end the two sessions the pool holds (as a restart or an idle timeout
    does), and wait until they are gone."""
    import time

    with store.engine.connect() as first, store.engine.connect() as second:
        pids = [conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
                for conn in (first, second)]
    admin = sa.create_engine(store.url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for pid in pids:
            assert conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
        deadline = time.monotonic() + 10
        while conn.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)"),
                           {"pids": pids}).scalar():
            assert time.monotonic() < deadline
            time.sleep(0.05)
    admin.dispose()


def test_a_read_after_the_server_closed_the_pooled_connections_succeeds(store):
    """Connections the server closed while they sat in the pool (a restart, an idle timeout)
    are replaced at checkout, so the next read succeeds at its first try (SQLite has no
    server to close them)."""
    store.add_article(article(1))
    if store.engine.dialect.name == "postgresql":
        _end_pooled_sessions(store)
    assert store.count_articles_to_annotate() == 1
    with store.engine.connect() as first, store.engine.connect() as second:
        for conn in (first, second):
            assert conn.exec_driver_sql("SELECT 1").scalar() == 1


def test_a_crawl_run_is_found_by_id_however_many_came_after(store):
    first = store.start_crawl_run({"n": 0})
    for n in range(60):
        store.start_crawl_run({"n": n + 1})
    store.finish_crawl_run(first, {"stored": 2})
    found = store.crawl_run(first)
    assert (found.id, found.status, found.counts) == (first, "finished", {"stored": 2})
    assert store.crawl_run(first + 1000) is None


def test_sentence_nouns_of_a_scope_in_id_order(store):
    scoped = [("en", "politics", date(2026, 3, 2)), ("fr", "politics", date(2026, 3, 2)),
              ("en", "sport", date(2026, 3, 2)), ("en", "politics", date(2026, 3, 9)),
              ("en", "politics", None), ("en", "politics", date(2026, 3, 1))]
    for n, (language, topic, published) in enumerate(scoped):
        a = article(n, language=language, topic=topic, published=published)
        store.add_article(a)
        store.save_annotations(a.id, [make_sentence(None, a.id, [f"p{n}"], ["c", f"c{n}"],
                                                    language=language, topic=topic,
                                                    published=published)])
    ids = [s.id for batch in store.iter_sentences() for s in batch]

    def chosen(**scope) -> list[int]:
        return [ids.index(s.id) for batch in store.sentence_nouns(batch_size=2, **scope)
                for s in batch]

    assert chosen() == [0, 1, 2, 3, 4, 5]
    assert chosen(language="en", topic="politics") == [0, 3, 4, 5]
    assert chosen(language="en", since=date(2026, 3, 2)) == [0, 2, 3]
    assert chosen(until=date(2026, 3, 2)) == [0, 1, 2, 5]
    assert chosen(since=date(2026, 3, 2), until=date(2026, 3, 8), topic="politics") == [0, 1]
    (first,) = next(store.sentence_nouns(batch_size=1))
    assert (first.entity_keys, first.common_nouns) == (["p0"], ["c", "c0"])


def test_references_selected_keeps_a_concurrent_writers_counts(store):
    from parawire.store import schema

    run = store.find_or_start_alignment_run("key-1", {"beta": 0.7})
    table = schema.alignment_runs
    with store.engine.begin() as conn:  # another writer's transaction, not yet committed
        conn.execute(table.update().where(table.c.id == run.id).values(counts={"pairs": 4}))
        writer = threading.Thread(target=store.record_references_selected, args=(run.id, 9))
        writer.start()
        writer.join(timeout=1)  # it waits for that transaction, then sets its key
    writer.join()
    assert store.alignment_run(run.id).counts == {"pairs": 4, "references_selected": 9}
    store.record_references_selected(run.id, 11)
    assert store.alignment_run(run.id).counts == {"pairs": 4, "references_selected": 11}


def _counts(words: str, pairs: list[tuple[str, str]]) -> CollocationCounts:
    return CollocationCounts(Counter(words.split()), Counter(pairs), len(words.split()))


def test_collocation_counts_grow_with_annotations_and_cover_each_article_once(store):
    first, second, french = article(1), article(2), article(3, language="fr")
    for a in (first, second, french):
        store.add_article(a)
    sentence = make_sentence(None, first.id, ["red sox"], ["agent"])
    store.save_annotations(first.id, [sentence], _counts("red sox red", [("red", "sox")]))
    store.save_annotations(second.id, [make_sentence(None, second.id, ["x"], ["y"])])
    store.save_annotations(french.id, [make_sentence(None, french.id, ["x"], ["y"])],
                           _counts("agent libre", [("agent", "libre")]))
    assert store.collocation_counts("en") == _counts("red sox red", [("red", "sox")])
    assert store.collocation_counts("de") == CollocationCounts()
    # The article saved without counts is not covered yet: counted once, then covered.
    ((ids, sentences),) = store.uncounted_sentences("en")
    assert ids == [second.id] and [s.article_id for s in sentences] == [second.id]
    store.add_collocation_counts("en", ids, _counts("free agent", [("free", "agent")]))
    assert list(store.uncounted_sentences("en")) == []
    assert store.collocation_counts("en") == CollocationCounts(
        Counter({"red": 2, "sox": 1, "free": 1, "agent": 1}),
        Counter({("red", "sox"): 1, ("free", "agent"): 1}), 5)
    # Annotating a covered article again cannot take its old counts out: the language's
    # counts start over from the new ones, the other articles to be counted again.
    store.save_annotations(first.id, [sentence], _counts("red sox", [("red", "sox")]))
    assert store.collocation_counts("en") == _counts("red sox", [("red", "sox")])
    assert [ids for ids, _ in store.uncounted_sentences("en")] == [[second.id]]
    assert store.collocation_counts("fr") == _counts("agent libre", [("agent", "libre")])


def test_two_clients_starting_the_same_alignment_run_share_it(store):
    from parawire.store import schema

    table = schema.alignment_runs
    started: list[int] = []
    client = open_store(store.url)
    with store.engine.begin() as conn:  # a client in the middle of starting the run
        store._lock(conn, "alignment-run:key-1")
        other = threading.Thread(target=lambda: started.append(
            client.find_or_start_alignment_run("key-1", {}).id))
        other.start()
        other.join(timeout=1)  # it waits for that client's transaction
        assert not started
        conn.execute(table.insert().values(run_key="key-1", parameters={}, counts={},
                                           status="running", started_at=datetime(2026, 3, 1)))
    other.join()
    client.engine.dispose()
    assert store.alignment_runs() == [store.alignment_run(started[0])]


def test_a_run_stopped_keeps_its_reason_until_it_is_resumed(store):
    run = store.find_or_start_alignment_run("key-1", {})
    store.stop_alignment_run(run.id, "failed", "OSError: [Errno 28] No space left on device")
    stopped = store.alignment_run(run.id)
    assert (stopped.status, stopped.reason) == ("failed", "OSError: [Errno 28] No space left on device")
    assert stopped.finished_at is not None
    store.stop_alignment_run(run.id, "interrupted", "later")  # only a running run is stopped
    assert store.alignment_run(run.id).reason.startswith("OSError")
    resumed = store.find_or_start_alignment_run("key-1", {})
    assert (resumed.id, resumed.status, resumed.reason) == (run.id, "running", "")
    crawl = store.start_crawl_run({"since": "2026-03-01"})
    store.stop_crawl_run(crawl, "interrupted", "SIGTERM")
    assert (store.crawl_run(crawl).status, store.crawl_run(crawl).reason) == ("interrupted", "SIGTERM")


def test_a_transaction_commits_its_writes_together_or_none_of_them(store):
    with store.transaction():
        assert store.add_article(article(1)) is ArticleOutcome.STORED
        # Inside the transaction its own uncommitted rows are seen: no duplicate slips in.
        assert store.add_article(article(1)) is ArticleOutcome.DUPLICATE_URL
        store.save_annotations(1, [make_sentence(None, 1, ["x"], ["y"])])
    assert store.counts()["articles"] == 1 and store.counts()["sentences"] == 1
    with pytest.raises(RuntimeError), store.transaction():
        store.add_article(article(2))
        with store.transaction():  # a nested one joins the outer transaction
            store.add_article(article(3))
        raise RuntimeError("killed half way")
    assert store.counts()["articles"] == 1
    assert store.add_article(article(2)) is ArticleOutcome.STORED
