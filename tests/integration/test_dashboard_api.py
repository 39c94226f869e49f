"""The dashboard's API and pages on a small stored corpus, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import time
import uuid
from dataclasses import dataclass
from datetime import date

import pytest
from fastapi.testclient import TestClient

from parawire.config import load_settings
from parawire.dashboard import create_app
from parawire.indexer import fill_index, open_index
from parawire.records import Pair
from parawire.store import Store
from tests.factories import make_sentence, store_annotated_article, store_hostile_article

TOKEN = "s3cret-token"
LOCAL = "http://localhost"  # a Host the dashboard serves by default


@dataclass
class Corpus:
    client: TestClient
    store: Store
    run: int
    other_run: int
    pairs: dict[str, int]
    xss_article: int


def _pair_ids(store: Store, run_id: int) -> dict[tuple[int, int], int]:
    from parawire.store import schema

    table = schema.pairs
    with store.engine.connect() as conn:
        rows = conn.execute(table.select().where(table.c.run_id == run_id))
        return {(r.input_sentence_id, r.target_sentence_id): r.id for r in rows}


@pytest.fixture
def corpus(store, tmp_path) -> Corpus:
    a = store_annotated_article(store, "http://news.test/a", [
        make_sentence(0, 0, ["rossi", "città nuova"], ["budget", "monday"],
                      text="Mayor Rossi approved the budget for Città Nuova on Monday."),
        make_sentence(0, 0, ["council"], ["session"], text="The council met for 50% of the session."),
    ], source="outlet-a", published=date(2026, 3, 2), topic="politics", title="Budget")
    b = store_annotated_article(store, "https://news.test/b", [
        make_sentence(0, 0, ["rossi", "città nuova"], ["budget", "monday"],
                      text="On Monday Rossi signed off the Città Nuova budget."),
        make_sentence(0, 0, ["council"], ["session"], text="Council members met for half the session."),
    ], source="outlet-b", published=date(2026, 3, 3), topic="economy", title="Rossi signs")
    store_annotated_article(store, "http://news.test/c", [
        make_sentence(0, 0, ["rossi"], ["budget"], text="Rossi a approuvé le budget."),
    ], source="outlet-c", published=date(2026, 3, 5), language="fr")
    x = store_hostile_article(store)
    run = store.find_or_start_alignment_run("k1", {"alpha": 0.7, "beta": 0.7, "min_cn": 3})
    store.record_references(run.id, [a[0], a[1], x[0]], [
        Pair(run.id, a[0], b[0], 0.9, 9.0, 2, 2, probability=0.93, grade=4,
             direction="equivalent"),
        Pair(run.id, a[1], b[1], 0.75, 7.5, 1, 1, probability=0.81, grade=3,
             direction="a_covers_b"),
        Pair(run.id, x[0], a[0], 0.8, 8.0, 1, 1),
    ])
    store.finish_alignment_run(run.id, {"pairs": 3, "dropped_near_verbatim": 2})
    other = store.find_or_start_alignment_run("k2", {"alpha": 0.5})
    store.record_references(other.id, [a[0]], [Pair(other.id, a[0], b[0], 0.95, 9.5, 2, 2)])
    crawl = store.start_crawl_run({"since": "2026-03-01", "until": "2026-03-05"})
    store.finish_crawl_run(crawl, {"stored": 4, "duplicate_url": 1, "errors/http": 2,
                                   "errors/extraction": 1, "skipped/out_of_window": 3})
    settings = load_settings(data_dir=tmp_path / "data",
                             dashboard={"overview_check_seconds": 0})
    fill_index(store, open_index(settings), 100)
    ids = _pair_ids(store, run.id)
    client = TestClient(create_app(settings, token=TOKEN, store=store), base_url=LOCAL)
    return Corpus(client, store, run.id, other.id,
                  {"rossi": ids[(a[0], b[0])], "council": ids[(a[1], b[1])],
                   "xss": ids[(x[0], a[0])]}, x[0] and _article_of(store, x[0]))


def _article_of(store: Store, sentence_id: int) -> int:
    return store.sentences_by_id([sentence_id])[sentence_id].article_id


def _auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_overview_counts_every_dimension(corpus):
    """References and pairs are the latest run's (never every run's summed), with each
    run's totals beside them."""
    body = corpus.client.get("/api/overview").json()
    assert body["totals"] == {"articles": 4, "sentences": 6, "references": 1, "pairs": 1}
    assert body["run"] == corpus.other_run
    assert body["runs"] == {str(corpus.other_run): {"references": 1, "pairs": 1},
                            str(corpus.run): {"references": 3, "pairs": 3}}
    outlets = body["breakdowns"]["outlet"]
    assert outlets["articles"] == {"outlet-a": 1, "outlet-b": 1, "outlet-c": 1, "outlet-x": 1}
    assert outlets["pairs"] == {"outlet-a": 1}
    assert body["breakdowns"]["day"]["sentences"] == {"2026-03-02": 2, "2026-03-03": 3,
                                                      "2026-03-05": 1}
    assert body["breakdowns"]["language"]["articles"] == {"en": 3, "fr": 1}
    assert body["breakdowns"]["topic"]["references"] == {"politics": 1}
    page = corpus.client.get("/").text
    assert f"alignment run #{corpus.other_run}, the latest" in page


def test_overview_follows_new_rows(corpus):
    first = corpus.client.get("/api/overview").json()  # counted in the request
    assert not first["refreshing"] and first["totals"]["articles"] == 4
    store_annotated_article(corpus.store, "http://news.test/new", [
        make_sentence(0, 0, ["x"], ["y"], text="A new sentence.")], source="outlet-n")
    stale = corpus.client.get("/api/overview").json()  # the last count, while recounting
    assert stale["refreshing"] and stale["totals"]["articles"] == 4
    deadline = time.monotonic() + 30
    body = stale
    while body["refreshing"] and time.monotonic() < deadline:
        time.sleep(0.02)
        body = corpus.client.get("/api/overview").json()
    assert not body["refreshing"] and body["totals"]["articles"] == 5
    assert body["breakdowns"]["outlet"]["sentences"]["outlet-n"] == 1
    assert body["as_of"] > stale["as_of"]


def test_a_restarted_dashboard_answers_from_the_saved_overview(corpus, tmp_path):
    counted = corpus.client.get("/api/overview").json()
    store_annotated_article(corpus.store, "http://news.test/later", [
        make_sentence(0, 0, ["x"], ["y"], text="Added while the dashboard was down.")])
    settings = load_settings(data_dir=tmp_path / "restart")
    restarted = TestClient(create_app(settings, token=TOKEN, store=corpus.store), base_url=LOCAL)
    first = restarted.get("/api/overview").json()  # the saved count, at once
    assert first["refreshing"] and first["as_of"] == counted["as_of"]
    assert first["totals"] == counted["totals"]
    deadline = time.monotonic() + 30
    body = first
    while body["totals"]["articles"] == 4 and time.monotonic() < deadline:
        time.sleep(0.05)
        body = restarted.get("/api/overview").json()
    assert body["totals"]["articles"] == 5 and not body["refreshing"]


def test_runs_and_index_stats(corpus):
    crawl = corpus.client.get("/api/crawl-runs").json()
    assert crawl[0]["errors"] == {"extraction": 1, "http": 2}
    assert crawl[0]["skipped"] == {"out_of_window": 3}
    assert crawl[0]["counts"] == {"duplicate_url": 1, "stored": 4}
    runs = corpus.client.get("/api/alignment-runs", params={"limit": 1}).json()
    assert [r["id"] for r in runs] == [corpus.other_run]
    every = corpus.client.get("/api/alignment-runs").json()
    first = next(r for r in every if r["id"] == corpus.run)
    assert first["parameters"]["alpha"] == 0.7
    assert first["counts"] == {"dropped_near_verbatim": 2, "pairs": 3}
    index = corpus.client.get("/api/index").json()
    assert index["backend"] == "tantivy" and index["error"] is None
    assert (index["stored_sentences"], index["not_indexed"]) == (6, 0)
    assert index["stats"]["total"] == 6
    assert index["stats"]["by_language"] == {"en": 5, "fr": 1}
    assert index["stats"]["by_source"] == {"outlet-a": 2, "outlet-b": 2, "outlet-c": 1,
                                           "outlet-x": 1}
    assert index["stats"]["by_day"] == {"2026-03-02": 2, "2026-03-03": 3, "2026-03-05": 1}
    page = corpus.client.get("/crawl").text
    assert "extraction" in page and 'id="indexed-sentences">6<' in page



def test_a_stopped_run_shows_how_it_ended_and_why(corpus):
    corpus.store.stop_alignment_run(corpus.other_run, "failed",
                                    "OSError: [Errno 28] No space left on device")
    (latest,) = corpus.client.get("/api/alignment-runs", params={"limit": 1}).json()
    assert (latest["status"], latest["reason"]) == (
        "failed", "OSError: [Errno 28] No space left on device")
    page = corpus.client.get("/runs").text
    assert 'failed: <span class="reason">OSError: [Errno 28] No space left on device' in page

SEARCHES = [
    ({"q": "città nuova"}, {"rossi", "xss"}),
    ({"q": "MAYOR rossi"}, {"rossi", "xss"}),
    ({"q": "signed off"}, {"rossi"}),
    ({"q": "50%"}, {"council"}),
    ({"q": "%"}, {"council"}),
    ({"q": "met_for"}, {"council"}),  # words: "_" parts them, as a space does
    ({"q": "met for half"}, {"council"}),
    ({"q": "for the session"}, set()),
    ({"q": "appro"}, set()),  # whole words
    ({"q": "__xss"}, {"xss"}),
    ({"entity": "Città Nuova"}, {"rossi", "xss"}),
    ({"entity": "council"}, {"council"}),
    ({"entity": "rossi"}, {"rossi", "xss"}),
    ({"outlet": "outlet-x"}, {"xss"}),
    ({"since": "2026-03-03", "until": "2026-03-03"}, {"rossi", "council", "xss"}),
    ({"since": "2026-03-04"}, set()),
    ({"until": "2026-03-02"}, {"rossi", "council", "xss"}),
    ({"min_score": 0.76}, {"rossi", "xss"}),
    ({"min_score": 0.7, "max_score": 0.79}, {"council"}),
    ({"min_probability": 0.8}, {"rossi", "council"}),  # "xss" has no probability
    ({"min_probability": 0.9}, {"rossi"}),
    ({"min_grade": 4}, {"rossi"}),  # "xss" has no grade
    ({"min_grade": 0}, {"rossi", "council"}),
    ({"direction": "a_covers_b"}, {"council"}),
    ({"min_grade": 3, "direction": "equivalent"}, {"rossi"}),
    ({"direction": "b_covers_a"}, set()),
]


def test_pair_search_filters(corpus):
    for params, expected in SEARCHES:
        body = corpus.client.get("/api/pairs", params={"run": corpus.run, **params}).json()
        ids = {p["id"] for p in body["pairs"]}
        found = {name for name, pid in corpus.pairs.items() if pid in ids}
        assert found == expected, params


def test_pairs_show_the_scorers_probability(corpus):
    body = corpus.client.get("/api/pairs", params={"run": corpus.run}).json()
    probability = {p["id"]: p["probability"] for p in body["pairs"]}
    assert probability == {corpus.pairs["rossi"]: 0.93, corpus.pairs["council"]: 0.81,
                           corpus.pairs["xss"]: None}
    page = corpus.client.get("/pairs", params={"run": corpus.run, "min_probability": 0.9}).text
    assert page.count('class="probability">probability 0.930<') == 1
    assert "signed off" in page and "met for half" not in page
    assert 'name="min_probability" type="number" min="0" max="1" step="0.01" value="0.9"' in page


def test_the_pair_browser_filters_by_grade_and_direction(corpus):
    page = corpus.client.get("/pairs", params={"run": corpus.run, "min_grade": 3,
                                               "direction": "a_covers_b"}).text
    council, rossi = corpus.pairs["council"], corpus.pairs["rossi"]
    assert f'data-pair-id="{council}"' in page and f'data-pair-id="{rossi}"' not in page
    assert 'class="grade" data-grade="3">grade 3, input covers target<' in page
    assert 'name="min_grade" type="number" min="0" max="5" step="1" value="3"' in page
    assert '<option value="a_covers_b" selected>input covers target</option>' in page
    every = corpus.client.get("/pairs", params={"run": corpus.run}).text
    assert 'data-grade="4">grade 4, equivalent<' in every
    assert '<option value="" selected>any</option>' in every


def test_pair_search_pages_newest_first_without_overlap(corpus):
    seen, before = [], None
    while True:
        params = {"limit": 1, **({"before": before} if before else {})}
        body = corpus.client.get("/api/pairs", params=params).json()
        seen += [p["id"] for p in body["pairs"]]
        before = body["next_before"]
        if before is None:
            break
    assert len(seen) == 4 and seen == sorted(seen, reverse=True)
    pair = corpus.client.get("/api/pairs", params={"q": "signed off", "run": corpus.run}).json()
    (only,) = pair["pairs"]
    assert only["input"]["source"] == "outlet-a" and only["target"]["source"] == "outlet-b"
    assert only["target"]["article_url"] == "https://news.test/b"


BAD_PARAMETERS = [
    {"limit": 101}, {"limit": 0}, {"min_score": 1.5}, {"since": "yesterday"},
    {"since": "2026-03-05", "until": "2026-03-01"}, {"min_score": 0.9, "max_score": 0.1},
    {"min_probability": -0.1}, {"min_probability": 1.01},
    {"run": 0}, {"q": "x" * 201}, {"unknown": 1},
    {"min_grade": 6}, {"min_grade": -1}, {"min_grade": 3.5}, {"direction": "sideways"},
]


def test_bad_parameters_are_422(corpus):
    for params in BAD_PARAMETERS:
        assert corpus.client.get("/api/pairs", params=params).status_code == 422, params
        assert corpus.client.get("/pairs", params=params).status_code == 422, params
    for path in ("/api/runs/0/precision", "/api/runs/x/labels", "/api/alignment-runs?limit=0",
                 "/api/articles/99999999999", f"/api/runs/{corpus.run}/labels?format=xml",
                 f"/api/runs/{corpus.run}/review/sample?size=51"):
        assert corpus.client.get(path).status_code == 422, path


def test_labels_need_the_token_and_give_precision(corpus):
    url = f"/api/runs/{corpus.run}/labels"
    body = {"pair_id": corpus.pairs["rossi"], "correct": True}
    assert corpus.client.post(url, json=body).status_code == 401
    assert corpus.client.post(url, json=body, headers=_auth("wrong")).status_code == 401
    first = corpus.client.post(url, json=body, headers=_auth())
    assert first.status_code == 200 and first.json()["right"] == 1
    wrong = {"pair_id": corpus.pairs["council"], "correct": False}
    result = corpus.client.post(url, json=wrong, headers=_auth()).json()
    assert (result["right"], result["wrong"], result["estimate"]) == (1, 1, 0.5)
    assert result["low"] == pytest.approx(0.0945, abs=1e-4)
    assert result["high"] == pytest.approx(0.9055, abs=1e-4)
    # Changing a verdict replaces it; a pair of another run is not this run's.
    again = corpus.client.post(url, json={**wrong, "correct": True, "reviewer": "Ada"},
                               headers=_auth()).json()
    assert (again["right"], again["wrong"]) == (2, 0)
    foreign = {"pair_id": _pair_ids(corpus.store, corpus.other_run).popitem()[1], "correct": True}
    assert corpus.client.post(url, json=foreign, headers=_auth()).status_code == 404
    assert corpus.client.post("/api/runs/999/labels", json=body, headers=_auth()).status_code == 404
    sample = corpus.client.get(f"/api/runs/{corpus.run}/review/sample", params={"size": 50}).json()
    assert [p["id"] for p in sample] == [corpus.pairs["xss"]]
    exported = corpus.client.get(url).json()
    assert [(e["pair_id"], e["correct"], e["reviewer"]) for e in exported] == [
        (corpus.pairs["rossi"], True, ""), (corpus.pairs["council"], True, "Ada")]
    rows = list(csv.DictReader(io.StringIO(corpus.client.get(url, params={"format": "csv"}).text)))
    assert rows[0]["input"].startswith("Mayor Rossi") and rows[1]["correct"] == "1"
    assert rows[1]["reviewer"] == "Ada"


def test_labels_with_a_grade_and_direction(corpus, tmp_path):
    """A label may be a grade with its direction (the input as side a): right follows from
    them, a grade 3 needs a direction, a disagreeing `correct` is refused; precision per
    model grade counts the labels of the pairs the model gave each grade."""
    url = f"/api/runs/{corpus.run}/labels"
    rossi, council = corpus.pairs["rossi"], corpus.pairs["council"]
    for bad in ({"pair_id": rossi, "grade": 3}, {"pair_id": rossi, "grade": 6},
                {"pair_id": rossi, "grade": 4, "direction": "both_add"},
                {"pair_id": rossi, "grade": 2, "correct": True}, {"pair_id": rossi},
                {"pair_id": rossi, "grade": "4"}):
        assert corpus.client.post(url, json=bad, headers=_auth()).status_code == 422, bad
    graded = corpus.client.post(url, json={"pair_id": rossi, "grade": 3,
                                           "direction": "b_covers_a"}, headers=_auth()).json()
    assert (graded["right"], graded["wrong"]) == (0, 1)  # the target covers the input: wrong
    result = corpus.client.post(url, json={"pair_id": council, "grade": 5},
                                headers=_auth()).json()
    assert [(g["grade"], g["right"], g["wrong"]) for g in result["per_grade"]] == [
        (4, 0, 1), (3, 1, 0)]
    labels = {e["pair_id"]: e for e in corpus.client.get(url).json()}
    assert (labels[rossi]["grade"], labels[rossi]["direction"], labels[rossi]["correct"]) == (
        3, "b_covers_a", False)
    assert (labels[council]["grade"], labels[council]["direction"]) == (5, "equivalent")
    rows = list(csv.DictReader(io.StringIO(corpus.client.get(url, params={"format": "csv"}).text)))
    assert {(r["grade"], r["direction"]) for r in rows} == {("3", "b_covers_a"), ("5", "equivalent")}
    page = corpus.client.get(f"/review/{corpus.run}").text
    assert 'data-grade="4"' in page and 'id="grade-precision"' in page


def test_writes_are_off_without_a_token(corpus, tmp_path):
    settings = load_settings(data_dir=tmp_path / "other")
    client = TestClient(create_app(settings, token="", store=corpus.store), base_url=LOCAL)
    response = client.post(f"/api/runs/{corpus.run}/labels", headers=_auth(""),
                           json={"pair_id": corpus.pairs["rossi"], "correct": True})
    assert response.status_code == 403


def test_pages_render_with_security_headers(corpus):
    for path in ("/", "/crawl", "/runs", "/pairs", "/review", "/api/overview", "/openapi.json"):
        response = corpus.client.get(path, follow_redirects=True)
        assert response.status_code == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
    assert corpus.client.get("/review", follow_redirects=False).headers["location"] == \
        f"/review/{corpus.other_run}"
    assert corpus.client.get("/review/999").status_code == 404
    assert corpus.client.get("/docs").status_code == 404  # Swagger UI would need a CDN
    assert corpus.client.get("/articles/999").status_code == 404


def test_pages_escape_crawled_text(corpus):
    article = corpus.client.get(f"/articles/{corpus.xss_article}").text
    pairs = corpus.client.get("/pairs", params={"outlet": "outlet-x"}).text
    review = corpus.client.get(f"/review/{corpus.run}").text
    for page in (article, pairs, review):
        assert "<script>window" not in page and "<img src=x" not in page
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in article
    assert 'href="javascript:' not in article and 'href="javascript:' not in pairs
    # (The diff marks "." apart: the other side has one.)
    assert "&lt;img" in pairs and "onerror=&#34;window" in pairs and "__xss=2&#34;&gt;" in pairs
    overview = corpus.client.get("/").text
    assert "</script><script" not in overview


def test_index_stats_on_elasticsearch(corpus, opensearch_api_url, tmp_path):
    settings = load_settings(data_dir=tmp_path / "es", index={
        "backend": "elasticsearch", "url": opensearch_api_url, "compatible_media_types": False,
        "prefix": f"dash{uuid.uuid4().hex[:8]}"})
    fill_index(corpus.store, open_index(settings), 100)
    client = TestClient(create_app(settings, token=TOKEN, store=corpus.store), base_url=LOCAL)
    index = client.get("/api/index").json()
    assert index["backend"] == "elasticsearch" and index["not_indexed"] == 0
    assert index["stats"]["total"] == 6
    assert index["stats"]["by_language"] == {"en": 5, "fr": 1}
    assert index["stats"]["by_day"] == {"2026-03-02": 2, "2026-03-03": 3, "2026-03-05": 1}
    assert 'id="indexed-sentences">6<' in client.get("/crawl").text


def test_unreachable_index_is_reported_not_raised(corpus, tmp_path):
    settings = load_settings(data_dir=tmp_path / "down", index={
        "backend": "elasticsearch", "url": "http://127.0.0.1:9", "request_timeout": 2})
    client = TestClient(create_app(settings, token=TOKEN, store=corpus.store), base_url=LOCAL)
    index = client.get("/api/index").json()
    assert index["stats"] is None and "cannot reach Elasticsearch" in index["error"]
    page = client.get("/crawl")
    assert page.status_code == 200 and "cannot reach Elasticsearch" in page.text


def test_plotly_is_served_from_the_wheel(corpus):
    response = corpus.client.get("/static/plotly.min.js")
    assert response.status_code == 200 and len(response.content) > 1_000_000
    assert b"plotly.js" in response.content[:2000]
    assert "/static/plotly.min.js" in corpus.client.get("/").text


def test_the_overview_shows_the_latest_runs_review_precision_per_grade(corpus):
    """Read afresh on every request: a label shows at once, though the counts are cached."""
    body = corpus.client.get("/api/overview").json()
    assert body["run"] == corpus.other_run and body["review_by_grade"] == []
    assert "No pair of this run reviewed yet" in corpus.client.get("/").text
    (pair_id,) = _pair_ids(corpus.store, corpus.other_run).values()
    url = f"/api/runs/{corpus.other_run}/labels"
    assert corpus.client.post(url, json={"pair_id": pair_id, "correct": True},
                              headers=_auth()).status_code == 200
    (row,) = corpus.client.get("/api/overview").json()["review_by_grade"]
    assert (row["grade"], row["right"], row["wrong"], row["estimate"]) == (None, 1, 0, 1.0)
    assert row["low"] == pytest.approx(0.2065, abs=1e-4) and row["high"] == 1.0
    page = corpus.client.get("/").text
    assert 'id="review-precision"' in page and "<td>none</td><td>1</td><td>1</td>" in page
    assert f'href="/review/{corpus.other_run}"' in page
