"""The dashboard's strict edges on SQLite and PostgreSQL: search answered by indexes, strict
request validation, control bytes, Host, a damaged store, 405's Allow, /health, /metrics."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from parawire.config import load_settings
from parawire.dashboard import create_app
from parawire.records import PairQuery
from parawire.store import open_store
from parawire.store.pair_search import search_select
from tests.factories import make_sentence, store_annotated_article
from tests.integration import test_dashboard_api
from tests.integration.test_dashboard_api import LOCAL, TOKEN, _auth

corpus = test_dashboard_api.corpus


def _plan(store, query: PairQuery) -> str:
    """The database's plan for a pair search, as one text (PostgreSQL told to use an index
    wherever one can answer, as it would on a store too large to scan)."""
    select = search_select(query, store.engine.dialect.name)
    compiled = str(select.compile(dialect=store.engine.dialect,
                                  compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as conn:
        if store.engine.dialect.name == "sqlite":
            rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled).fetchall()
            return "\n".join(str(row[-1]) for row in rows)
        conn.exec_driver_sql("SET enable_seqscan = off")
        return "\n".join(row[0] for row in conn.exec_driver_sql("EXPLAIN " + compiled))


def test_text_and_entity_search_read_indexes_not_every_sentence(corpus):
    text_plan = _plan(corpus.store, PairQuery(q="absent-word"))
    entity_plan = _plan(corpus.store, PairQuery(entity="absent name"))
    if corpus.store.engine.dialect.name == "sqlite":
        assert "sentence_text_search VIRTUAL TABLE" in text_plan
        assert "sentence_name_search VIRTUAL TABLE" in entity_plan
        for plan in (text_plan, entity_plan):
            assert "SCAN input_sentence" not in plan and "SCAN target_sentence" not in plan
    else:
        assert "ix_sentences_text_words" in text_plan
        # The name is matched among the distinct names, not in each sentence's names.
        assert "on entity_names" in entity_plan and "proper_nouns" not in entity_plan
        assert "Seq Scan on sentences" not in text_plan + entity_plan


def test_search_index_follows_new_sentences_and_folds_case(corpus):
    from parawire.records import Pair

    new = store_annotated_article(corpus.store, "http://news.test/zephyr", [
        make_sentence(0, 0, ["zoë ångström", "malmö"], ["wind"],
                      text="Zoë Ångström of Malmö watched the Zephyr wind.")], source="outlet-z")
    run = corpus.store.find_or_start_alignment_run("k3", {})
    corpus.store.record_references(run.id, new, [Pair(run.id, new[0], new[0] - 1, 0.8, 8, 1, 1)])

    def found(**params) -> list[int]:
        response = corpus.client.get("/api/pairs", params=params)
        assert response.status_code == 200, response.text
        return [pair["run_id"] for pair in response.json()["pairs"]]

    assert found(q="zephyr") == [run.id]
    assert found(q="ZEPHYR WIND") == [run.id]  # words in a row
    assert found(q="the zephyr") == [run.id]
    assert found(q="zeph") == []  # whole words
    assert found(q="wind zephyr") == []
    assert found(q="ångström") == [run.id]  # case folded, accents kept
    assert found(q="angstrom") == []
    assert found(entity="Ångström") == [run.id]  # casefolded as stored
    assert found(entity="malm") == [run.id]
    assert found(q="absent-word") == []
    assert sorted(found(entity="ro")) == sorted(found(entity="rossi"))  # short: scanned
    assert found(entity="rossi")


def test_entity_search_follows_names_changed_on_reannotation(corpus):
    """Re-annotating an article updates a kept position's names and deletes a position it
    no longer has (its names with it); the name search (on PostgreSQL a names table kept by
    triggers) follows."""
    from parawire.records import Pair

    store = corpus.store
    first, _second = store_annotated_article(store, "http://news.test/quill", [
        make_sentence(0, 0, ["orla quill"], ["harbour"], text="Orla Quill saw the harbour."),
        make_sentence(0, 0, ["bram vetch"], ["ferry"], text="Bram Vetch took the ferry.")])
    run = store.find_or_start_alignment_run("k-quill", {})
    store.record_references(run.id, [first], [Pair(run.id, first, first - 1, 0.8, 8, 1, 1)])

    def found(entity: str) -> list[int]:
        response = corpus.client.get("/api/pairs", params={"entity": entity})
        assert response.status_code == 200, response.text
        return [pair["input"]["sentence_id"] for pair in response.json()["pairs"]]

    assert found("quill") == [first] and found("ines dr") == []
    article = store.sentences_by_id([first])[first].article_id
    assert store.save_annotations(article, [make_sentence(
        first, article, ["orla quillon", "ines dray"], ["harbour"], position=0,
        text="Orla Quill saw the harbour.")])
    assert store.sentences_by_id([first, _second]).keys() == {first}
    assert found("quillon") == [first] and found("ines dr") == [first]
    assert store.save_annotations(article, [make_sentence(
        first, article, ["bram vetch"], ["harbour"], position=0, text="Bram saw it.")])
    assert found("quill") == [] and found("vetch") == [first]


@pytest.mark.parametrize("params", [
    {"until": "0"}, {"since": "1700000000"}, {"since": "2026-3-1"},
    {"since": "2026-03-05", "until": "2026-03-01"}, {"limit": "2.5"},
    {"q": "nul\x00byte"}, {"outlet": "a\x00"}, {"entity": "tab\there"}, {"q": "del\x7f"},
])
def test_bad_parameters_are_refused_with_422(corpus, params):
    response = corpus.client.get("/api/pairs", params=params)
    assert response.status_code == 422, response.text
    assert corpus.client.get("/api/pairs", params={"q": "Rossi"}).json()["pairs"]  # still fine
    assert corpus.client.get("/pairs", params=params).status_code == 422


def test_422_for_a_reversed_window_is_documented(corpus):
    operation = corpus.client.get("/openapi.json").json()["paths"]["/api/pairs"]["get"]
    assert {"200", "400", "422", "503"} <= set(operation["responses"])
    since = next(p for p in operation["parameters"] if p["name"] == "since")
    assert "not after `until`" in since["description"]


@pytest.mark.parametrize("body", [
    {"correct": 0}, {"correct": "true"}, {"correct": True, "pair_id": "1"},
    {"correct": True, "pair_id": True}, {"correct": True, "pair_id": 1.5},
    {"correct": True, "reviewer": "a\x00b"}, {"correct": True, "extra": 1},
])
def test_label_bodies_are_validated_strictly(corpus, body):
    payload = {"pair_id": corpus.pairs["rossi"], **body}
    response = corpus.client.post(f"/api/runs/{corpus.run}/labels", json=payload,
                                  headers=_auth())
    assert response.status_code == 422, response.text


def test_405_names_every_method_of_the_path(corpus):
    response = corpus.client.delete(f"/api/runs/{corpus.run}/labels", headers=_auth())
    assert response.status_code == 405
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}
    assert corpus.client.put("/api/overview").headers["allow"] == "GET"


@pytest.mark.parametrize("host,served", [
    ("localhost", True), ("127.0.0.1:8000", True), ("[::1]:8000", True), ("LOCALHOST", True),
    ("evil.test", False), ("evil.test:8000", False), ("localhost.evil.test", False),
])
def test_only_allowed_hosts_are_served(corpus, host, served):
    response = corpus.client.get("/api/overview", headers={"Host": host})
    assert response.status_code == (200 if served else 400)
    if not served:
        assert "dashboard.allowed_hosts" in response.json()["detail"]
        assert response.headers["content-security-policy"]


def test_allowed_hosts_come_from_the_config(corpus, tmp_path):
    settings = load_settings(data_dir=tmp_path / "data",
                             dashboard={"allowed_hosts": ["dash.example.org"]})
    client = TestClient(create_app(settings, token=TOKEN, store=corpus.store),
                        base_url="http://dash.example.org")
    assert client.get("/api/overview").status_code == 200
    assert client.get("/api/overview", headers={"Host": "localhost"}).status_code == 400


def test_health_and_metrics(corpus):
    health = corpus.client.get("/health")
    assert health.status_code == 200
    assert health.json()["checks"]["store"] == {"ok": True, "error": None, "sentences": None}
    assert health.json()["checks"]["index"]["sentences"] == 6
    metrics = corpus.client.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    text = metrics.text
    assert 'parawire_rows{table="pairs"} 4.0' in text
    assert 'parawire_rows{table="sentences"} 6.0' in text
    assert 'parawire_crawl_errors{reason="http"} 2.0' in text
    assert 'parawire_crawl_pages{outcome="stored"} 4.0' in text
    assert 'parawire_run_duration_seconds{kind="alignment",run="1",status="finished"}' in text


def test_a_damaged_store_answers_503_in_one_line(tmp_path):
    path = tmp_path / "store.db"
    damaged = open_store(f"sqlite:///{path}")
    settings = load_settings(data_dir=tmp_path / "data",
                             dashboard={"overview_check_seconds": 0})
    client = TestClient(create_app(settings, token=TOKEN, store=damaged), base_url=LOCAL)
    assert client.get("/api/overview").status_code == 200
    damaged.engine.dispose()
    with path.open("r+b") as file:
        file.write(b"this is not a database" * 8)
    for url in ("/api/overview", "/api/pairs", "/api/crawl-runs", "/api/alignment-runs",
                "/api/runs/1/precision", "/", "/pairs", "/runs", "/crawl", "/review"):
        response = client.get(url)
        assert response.status_code == 503, (url, response.text[:200])
        detail = response.json()["detail"]
        assert detail.startswith("the store cannot be read") and "\n" not in detail
    health = client.get("/health")
    assert health.status_code == 503 and not health.json()["checks"]["store"]["ok"]
