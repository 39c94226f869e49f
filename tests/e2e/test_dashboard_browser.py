"""`parawire serve` on the demo corpus, driven in Debian's headless Chromium (Playwright's
Python client, no downloaded browser): every page, search, review, and hostile text that
must not run. Screenshots go to tests/e2e/screenshots/ (git-ignored, kept by CI)."""

from __future__ import annotations

import csv
import io
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from parawire.config import load_settings
from parawire.dashboard.precision import wilson_interval
from parawire.records import Pair
from parawire.store import store_of
from tests.conftest import ROOT
from tests.factories import store_hostile_article
from tests.processes import HAS_PROC, command_line, live_processes

# The demo runs at the defaults: stories, then alignment within them.
pytestmark = pytest.mark.within_story
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "tests" / "e2e" / "screenshots"
TOKEN = "e2e-token"


@dataclass
class Served:
    url: str
    data_dir: Path
    demo_run: int
    hostile_run: int
    hostile_article: int


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _serving(env: dict[str, str], log: Path, seconds: float = 60) -> Iterator[str]:
    """`parawire serve` on a free port (default host) until the block ends; yields its URL."""
    port = _free_port()
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "parawire", "serve", "--port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + seconds
        while True:
            assert server.poll() is None, f"parawire serve exited: {log.read_text()}"
            assert time.monotonic() < deadline, "parawire serve did not start listening"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _add_hostile_run(data_dir: Path) -> tuple[int, int]:
    """A crawled article full of script, paired with a demo sentence in a run of its own."""
    store = store_of(load_settings(data_dir=data_dir))
    (hostile,) = store_hostile_article(store)
    partner = next(s for batch in store.iter_sentences() for s in batch)
    run = store.find_or_start_alignment_run("hostile", {"note": "<b>hostile</b>"})
    store.record_references(run.id, [hostile], [Pair(run.id, hostile, partner.id, 0.8, 8, 1, 1)])
    store.finish_alignment_run(run.id, {"pairs": 1})
    article = store.sentences_by_id([hostile])[hostile].article_id
    store.engine.dispose()
    return run.id, article


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    """The demo corpus (`parawire demo`) plus a hostile article, behind `parawire serve`."""
    data_dir = tmp_path_factory.mktemp("dash") / "data"
    env = {**os.environ, "PARAWIRE_DATA_DIR": str(data_dir), "PARAWIRE_SERVE__TOKEN": TOKEN}
    demo = subprocess.run([sys.executable, "-m", "parawire", "demo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert demo.returncode == 0, demo.stderr
    store = store_of(load_settings(data_dir=data_dir))
    (demo_run,) = store.alignment_runs()
    store.engine.dispose()
    hostile_run, hostile_article = _add_hostile_run(data_dir)
    with _serving(env, data_dir / "serve.log") as url:
        yield Served(url, data_dir, demo_run.id, hostile_run, hostile_article)


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("PARAWIRE_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{CHROMIUM} is missing although make test should have installed it")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A fresh page that records script errors, console errors and any dialog."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(f"pageerror: {error}"))
    page.on("console", lambda msg: msg.type == "error" and page.problems.append(msg.text))
    page.on("dialog", lambda dialog: (page.problems.append(f"dialog: {dialog.message}"),
                                      dialog.dismiss()))
    yield page
    context.close()


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_overview_draws_every_chart_from_the_bundled_plotly(served, page):
    page.goto(served.url + "/")
    for dimension in ("day", "outlet", "topic", "language"):
        page.wait_for_selector(f"#chart-{dimension}.drawn .main-svg")
    totals = page.request.get(served.url + "/api/overview").json()["totals"]
    for metric, value in totals.items():
        assert page.inner_text(f"#total-{metric}") == str(value)
    assert totals["articles"] > 50 and totals["pairs"] > 0
    # One bar per outlet for articles: the five demo outlets and the hostile one.
    bars = page.locator("#chart-outlet .trace.bars").first.locator("path").count()
    assert bars == 6
    for link in page.locator("nav a").evaluate_all("links => links.map(a => a.href)"):
        assert page.request.get(link).status == 200, link  # every page, offline-safe
    assert page.problems == []
    _shot(page, "overview")


def test_crawl_and_alignment_run_pages(served, page):
    page.goto(served.url + "/crawl")
    page.wait_for_selector("#chart-index-days.drawn .main-svg")
    assert page.inner_text("#indexed-sentences") != "—"
    assert page.locator("table.runs tbody tr").count() == 1
    assert "stored" in page.inner_text("table.runs tbody tr")
    assert page.problems == []
    _shot(page, "crawl-and-index")
    page.goto(served.url + "/runs")
    row = page.locator("table.runs tbody tr", has_text=f"#{served.demo_run}")
    assert "beta" in row.inner_text() and "references_done" in row.inner_text()
    hostile = page.locator("table.runs tbody tr", has_text=f"#{served.hostile_run}")
    assert "<b>hostile</b>" in hostile.inner_text()  # parameters shown as text, not markup
    _shot(page, "alignment-runs")
    row.get_by_role("link", name="pairs").click()
    page.wait_for_url(f"**/pairs?run={served.demo_run}")
    runs = page.request.get(served.url + "/api/alignment-runs").json()
    pairs = next(r for r in runs if r["id"] == served.demo_run)["counts"]["pairs"]
    assert pairs > 0
    assert page.locator("li.pair").count() == min(pairs, 20)  # the first page
    assert page.locator("a.next").count() == (1 if pairs > 20 else 0)
    assert page.problems == []


def test_pair_search_highlights_differences_and_links_articles(served, page):
    first = page.request.get(served.url + "/api/pairs",
                             params={"run": served.demo_run, "limit": 1}).json()["pairs"][0]
    word = max(first["input"]["text"].split(), key=len).strip(".,;:\"'()")
    page.goto(served.url + "/pairs")
    page.fill("input[name=q]", word)
    page.fill("input[name=min_score]", "0.7")
    page.click("#pair-search button[type=submit]")
    page.wait_for_url("**/pairs?*q=*")
    items = page.locator("li.pair")
    assert items.count() >= 1
    for i in range(items.count()):
        assert word.casefold() in items.nth(i).inner_text().casefold()
    shown = page.locator(f"li.pair[data-pair-id='{first['id']}']")
    assert shown.locator(".side").count() == 2
    assert shown.locator("mark").count() > 0  # the two sides differ somewhere
    _shot(page, "pair-search")
    shown.locator(".side").nth(1).get_by_role("link", name="article #").click()
    page.wait_for_url(f"**/articles/{first['target']['article_id']}")
    assert page.inner_text("h2.article-title") == first["target"]["article_title"]
    assert page.problems == []
    _shot(page, "article")


def test_stories_per_day_and_a_story_beside_its_pairs(served, page):
    schema = page.request.get(served.url + "/openapi.json").json()
    assert {"/api/stories/days", "/api/stories", "/api/stories/{story_id}"} <= set(schema["paths"])
    days = page.request.get(served.url + "/api/stories/days").json()
    assert days and all(d["stories"] >= d["multi_outlet"] for d in days)
    page.goto(served.url + "/stories")
    assert page.locator("table.story-days tbody tr").count() == len(days)
    page.locator("table.story-days a").first.click()
    page.wait_for_url("**/stories?day=*")
    assert page.locator("li.story").count() == days[0]["stories"]
    _shot(page, "stories")

    found = page.request.get(served.url + "/api/pairs",
                             params={"run": served.demo_run, "limit": 100}).json()["pairs"]
    first = next(p for p in found if p["story_id"] is not None)
    page.goto(served.url + f"/pairs?run={served.demo_run}")
    page.locator(f"li.pair[data-pair-id='{first['id']}'] a.story-link").click()
    page.wait_for_url(f"**/stories/{first['story_id']}")
    story = page.request.get(served.url + f"/api/stories/{first['story_id']}").json()
    outlets = page.locator("section.outlet")
    assert outlets.count() == len(story["articles_by_outlet"]) >= 2
    assert first["input"]["source"] in story["articles_by_outlet"]
    assert page.locator(f"li.pair[data-pair-id='{first['id']}'] .side").count() == 2
    assert page.locator("li.pair").count() == len(story["pairs"])
    assert page.request.get(served.url + "/api/stories/999999").status == 404
    assert page.problems == []
    _shot(page, "story")


def test_review_marks_pairs_and_shows_wilson_precision(served, page):
    page.goto(served.url + "/review")
    page.wait_for_url(f"**/review/{served.hostile_run}")  # the latest run
    page.goto(f"{served.url}/review/{served.demo_run}")
    assert page.locator("li.pair").count() == 10
    page.fill("#token", "wrong-token")
    page.locator("li.pair .mark-right").first.click()
    page.wait_for_selector("#review-status:has-text('401')")
    page.fill("#token", TOKEN)
    page.locator("#token").dispatch_event("change")
    marked = []
    for i, verdict in enumerate(["right", "right", "right", "wrong"]):
        item = page.locator("li.pair").nth(i)
        marked.append(int(item.get_attribute("data-pair-id")))
        item.locator(f".mark-{verdict}").click()
        page.wait_for_selector(f"#labeled:text-is('{i + 1}')")
    low, high = wilson_interval(3, 4)
    assert page.inner_text("#estimate") == "0.750"
    assert page.inner_text("#interval") == f"[{low:.3f}, {high:.3f}]"
    assert page.locator("li.labeled-wrong").count() == 1
    _shot(page, "review")
    exported = page.request.get(f"{served.url}/api/runs/{served.demo_run}/labels?format=csv")
    rows = list(csv.DictReader(io.StringIO(exported.text())))
    assert [(int(r["pair_id"]), r["correct"]) for r in rows] == list(
        zip(marked, ["1", "1", "1", "0"], strict=True))
    assert all(0 < float(r["probability"]) <= 1 for r in rows)  # the demo's pairs are scored
    page.click("#next-sample")
    page.wait_for_load_state()
    assert page.inner_text("#labeled") == "4"
    shown = {int(x) for x in page.locator("li.pair").evaluate_all(
        "items => items.map(li => li.dataset.pairId)")}
    assert not shown & set(marked)  # a new sample never repeats a labeled pair
    # The one failed request is the refused wrong token.
    assert page.problems == ["Failed to load resource: the server responded with a status "
                             "of 401 (Unauthorized)"]


def test_review_by_keyboard_records_the_reviewer(served, page):
    page.goto(f"{served.url}/review/{served.demo_run}")
    before = int(page.inner_text("#labeled"))
    page.fill("#token", TOKEN)
    page.locator("#token").dispatch_event("change")
    page.fill("#reviewer", "Grace Hopper")
    page.locator("#reviewer").dispatch_event("change")
    page.locator("h1, body").first.click(position={"x": 1, "y": 1})  # keys go to the page
    items = page.locator("li.pair")
    ids = [int(items.nth(i).get_attribute("data-pair-id")) for i in range(3)]
    page.keyboard.press("r")  # the first pair: right, then on to the second
    page.wait_for_selector(f"#labeled:text-is('{before + 1}')")
    page.keyboard.press("j")  # skip the second
    page.keyboard.press("w")  # the third: wrong
    page.wait_for_selector(f"#labeled:text-is('{before + 2}')")
    assert "labeled-right" in items.nth(0).get_attribute("class")
    assert "labeled-" not in items.nth(1).get_attribute("class")
    assert "labeled-wrong" in items.nth(2).get_attribute("class")
    page.keyboard.press("k")
    assert "current" in items.nth(2).get_attribute("class")  # back from the fourth
    labels = page.request.get(f"{served.url}/api/runs/{served.demo_run}/labels").json()
    mine = {label["pair_id"]: (label["correct"], label["reviewer"]) for label in labels}
    assert mine[ids[0]] == (True, "Grace Hopper") and mine[ids[2]] == (False, "Grace Hopper")
    assert ids[1] not in mine
    assert page.problems == []


def test_review_grades_pairs_by_keyboard_with_a_direction(served, page):
    """Keys 0-5 grade a pair (3 waits for a or b), = alone is grade 4; the labels carry grade
    and direction, right follows from them, and precision per model grade updates."""
    page.goto(f"{served.url}/review/{served.demo_run}")
    before = int(page.inner_text("#labeled"))
    page.fill("#token", TOKEN)
    page.locator("#token").dispatch_event("change")
    page.locator("h1, body").first.click(position={"x": 1, "y": 1})
    items = page.locator("li.pair")
    ids = [int(items.nth(i).get_attribute("data-pair-id")) for i in range(3)]
    model_grades = [int(items.nth(i).locator(".grade").get_attribute("data-grade"))
                    for i in range(3)]
    page.keyboard.press("3")  # waits for the direction: nothing is sent yet
    assert "a (input covers)" in items.nth(0).locator(".label-state").inner_text()
    page.keyboard.press("a")
    page.wait_for_selector(f"#labeled:text-is('{before + 1}')")
    page.keyboard.press("2")
    page.wait_for_selector(f"#labeled:text-is('{before + 2}')")
    page.keyboard.press("=")
    page.wait_for_selector(f"#labeled:text-is('{before + 3}')")
    assert items.nth(0).locator(".label-state").inner_text() == "graded 3, input covers target"
    assert "labeled-wrong" in items.nth(1).get_attribute("class")
    labels = {label["pair_id"]: label for label in
              page.request.get(f"{served.url}/api/runs/{served.demo_run}/labels").json()}
    assert [(labels[i]["grade"], labels[i]["direction"], labels[i]["correct"]) for i in ids] == [
        (3, "a_covers_b", True), (2, "both_add", False), (4, "equivalent", True)]
    precision = page.request.get(f"{served.url}/api/runs/{served.demo_run}/precision").json()
    per_grade = {g["grade"]: g["right"] + g["wrong"] for g in precision["per_grade"]}
    assert sum(per_grade.values()) == precision["labeled"]
    for grade in set(model_grades):
        assert per_grade[grade] >= model_grades.count(grade)
        row = page.locator(f"#grade-precision tr[data-grade='{grade}'] td").nth(1)
        assert int(row.inner_text()) == per_grade[grade]
    assert page.problems == []


def test_hostile_crawled_text_never_runs(served, page):
    pages = [f"/articles/{served.hostile_article}", "/pairs?outlet=outlet-x",
             f"/review/{served.hostile_run}", f"/pairs?q=%3Cscript%3E&run={served.hostile_run}"]
    for path in pages:
        page.goto(served.url + path)
        page.wait_for_load_state("load")
        assert page.evaluate("typeof window.__xss") == "undefined", path
        assert page.locator("main script, main img").count() == 0, path
        assert "<script>window.__xss=1</script>" in page.inner_text("main"), path
    page.goto(f"{served.url}/articles/{served.hostile_article}")
    assert page.locator("a[href^='javascript:']").count() == 0
    assert page.problems == []
    _shot(page, "hostile-article")


def test_bad_parameters_get_a_422_page(served, page):
    response = page.goto(served.url + "/pairs?min_score=2&limit=1000")
    assert response.status == 422
    assert "min_score" in page.inner_text("main") and "limit" in page.inner_text("main")


def test_serve_without_a_token_prints_one_for_the_session(served, tmp_path):
    """On loopback by default; with serve.token unset, writes take the printed token only."""
    import httpx

    env = {**os.environ, "PARAWIRE_DATA_DIR": str(served.data_dir)}
    env.pop("PARAWIRE_SERVE__TOKEN", None)
    log = tmp_path / "serve.log"
    with _serving(env, log) as url:
        printed = re.search(r"write token for this session: (\S+)", log.read_text()).group(1)
        (pair,) = httpx.get(f"{url}/api/pairs", params={"run": served.hostile_run}).json()["pairs"]
        label = f"{url}/api/runs/{served.hostile_run}/labels"
        body = {"pair_id": pair["id"], "correct": False}
        refused = httpx.post(label, json=body, headers={"Authorization": f"Bearer {TOKEN}"})
        assert refused.status_code == 401
        taken = httpx.post(label, json=body, headers={"Authorization": f"Bearer {printed}"})
        assert taken.status_code == 200 and taken.json()["wrong"] == 1
    assert "Uvicorn running on http://127.0.0.1:" in log.read_text()


def _worker_processes(server: int) -> list[int]:
    """The uvicorn worker processes a `parawire serve` process started."""
    return [pid for pid, (parent, _) in live_processes().items()
            if parent == server and b"spawn_main" in command_line(pid)]


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
def test_serve_runs_its_workers_with_one_token(served, tmp_path):
    """serve.workers processes answer, and each takes the token the command printed."""
    import httpx

    env = {**os.environ, "PARAWIRE_DATA_DIR": str(served.data_dir), "PARAWIRE_SERVE__WORKERS": "3"}
    env.pop("PARAWIRE_SERVE__TOKEN", None)
    log = tmp_path / "serve.log"
    with _serving(env, log) as url:
        (server,) = [int(pid) for pid in subprocess.run(
            ["pgrep", "-f", f"parawire serve --port {url.rsplit(':', 1)[1]}$"],
            capture_output=True, text=True).stdout.split()]
        assert len(_worker_processes(server)) == 3
        printed = re.search(r"write token for this session: (\S+)", log.read_text()).group(1)
        (pair,) = httpx.get(f"{url}/api/pairs", params={"run": served.hostile_run}).json()["pairs"]
        label = f"{url}/api/runs/{served.hostile_run}/labels"
        body = {"pair_id": pair["id"], "correct": False}  # as the test above left it
        token = {"Authorization": f"Bearer {printed}"}
        # A new connection each, so that they reach every worker.
        answers = [httpx.post(label, json=body, headers=token) for _ in range(12)]
    assert [answer.status_code for answer in answers] == [200] * 12
    assert log.read_text().count("Started server process") == 3
