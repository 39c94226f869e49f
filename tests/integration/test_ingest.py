"""The ingest stage on a real SQLite store: dedup, bad records, idempotence, batches that
commit whole or not at all, resuming, and the command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from parawire.config import load_settings
from parawire.crawler import INGEST
from parawire.crawler.ingest import run as ingest_run
from parawire.dashboard import create_app
from parawire.errors import ParawireError
from parawire.roof.cli import main
from parawire.store import store_of
from parawire.store.schema import articles

WORDS = ["council", "budget", "mayor", "vote", "river", "storm", "bridge", "school", "hospital",
         "election", "market", "company", "workers", "union", "court", "police", "museum",
         "festival", "match", "league"]


def _text(seed: int, words: int = 150) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(words)) + "."


def _archive(path: Path, records: list[dict | str]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n",
                    encoding="utf-8")
    return path


def _record(n: int, text: str | None = None) -> dict:
    return {"link": f"https://news.example/{n}", "outlet": f"outlet{n % 3}",
            "date": "2020-05-18", "title": f"Story {n}", "text": text or _text(n)}


def _stored(settings) -> list[tuple[str, int | None]]:
    with store_of(settings).engine.connect() as conn:
        return [(row.url, row.syndicated_of)
                for row in conn.execute(articles.select().order_by(articles.c.id))]


def test_ingest_counts_logs_and_is_idempotent(tmp_path: Path):
    settings = load_settings(data_dir=tmp_path / "data")
    near = _text(1).replace("council", "senate", 1)
    path = _archive(tmp_path / "a.jsonl", [
        _record(1), _record(2), "{broken", {"outlet": "x", "text": _text(3)},
        _record(2), {**_record(4), "text": _text(1)}, _record(5, near)])
    scope = {"files": [str(path)], "fields": ["url=link", "source=outlet"]}
    counts = INGEST(settings, scope)
    assert {k: counts[k] for k in ("stored", "invalid", "duplicate_url", "duplicate_content",
                                   "near_duplicate", "records")} == {
        "stored": 2, "invalid": 2, "duplicate_url": 1, "duplicate_content": 1,
        "near_duplicate": 1, "records": 7}
    stored = _stored(settings)
    assert [url for url, _ in stored] == [f"https://news.example/{n}" for n in (1, 2, 5)]
    assert stored[2][1] is not None  # the near-duplicate points at its original
    log = Path(counts["log"]).read_text()
    assert f"invalid {path}:3: not JSON" in log
    assert f"invalid {path}:4: no url: 'link' missing or empty" in log
    run = store_of(settings).crawl_run(counts["run_id"])
    assert run is not None and run.status == "finished" and run.counts["stored"] == 2
    assert run.parameters["ingest"] == [str(path)]

    again = INGEST(settings, scope)
    assert again.get("stored", 0) == 0
    assert (again["duplicate_url"], again["duplicate_content"]) == (4, 1)
    assert len(_stored(settings)) == 3


COPYRIGHT = "Copyright 2020 The Example Times, all rights reserved; click here for reprints."


def _site_lines(n: int) -> list[str]:
    return ["Advertisement", _text(n, 60), "", "***", _text(100 + n, 60), COPYRIGHT]


def _site_page(n: int, host: str = "news.example") -> dict:
    return {**_record(n), "link": f"https://{host}/{n}", "text": "\n".join(_site_lines(n))}


@pytest.mark.parametrize("strip", [True, False])
def test_a_sites_repeated_lines_go_from_its_later_articles(tmp_path: Path, strip: bool):
    """As a crawl learns them: a short line seen on one earlier article of the same site
    goes, a sentence after three; blank lines (whose key a line of no words, "***", shares)
    and other sites' articles stay as they are."""
    settings = load_settings(data_dir=tmp_path / "data", ingest={"strip_boilerplate": strip})
    pages = [_site_page(n) for n in range(1, 5)] + [_site_page(5, "other.example")]
    path = _archive(tmp_path / "a.jsonl", pages)
    counts = INGEST(settings, {"files": [str(path)], "fields": ["url=link"]})
    with store_of(settings).engine.connect() as conn:
        texts = [row.text for row in conn.execute(articles.select().order_by(articles.c.id))]
    if not strip:
        assert texts == [page["text"] for page in pages]
        assert counts.get("boilerplate_lines", 0) == 0
        return
    kept = [_site_lines(1), *(_site_lines(n)[1:3] + _site_lines(n)[4:] for n in (2, 3)),
            _site_lines(4)[1:3] + _site_lines(4)[4:5], _site_lines(5)]
    assert texts == ["\n".join(lines) for lines in kept]
    assert (counts["boilerplate_lines"], counts["stored"], counts["records"]) == (7, 5, 5)
    again = INGEST(settings, {"files": [str(path)], "fields": ["url=link"]})
    assert (again.get("stored", 0), again["duplicate_url"]) == (0, 5)


def test_a_failing_batch_stores_none_of_its_records_and_a_rerun_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    settings = load_settings(data_dir=tmp_path / "data", ingest={"batch_size": 2})
    path = _archive(tmp_path / "a.jsonl", [_record(n) for n in range(1, 7)])
    scope = {"files": [str(path)], "fields": ["url=link"]}
    real = ingest_run.store_article
    calls = []

    def dies_on_the_fourth(store, article, run_id, near):
        calls.append(article.url)
        if len(calls) == 4:
            raise KeyboardInterrupt  # as a kill in the middle of the second batch
        return real(store, article, run_id, near)

    monkeypatch.setattr(ingest_run, "store_article", dies_on_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        INGEST(settings, scope)
    assert [url for url, _ in _stored(settings)] == ["https://news.example/1",
                                                     "https://news.example/2"]
    assert store_of(settings).crawl_runs(limit=1)[0].status == "failed"
    monkeypatch.setattr(ingest_run, "store_article", real)
    counts = INGEST(settings, scope)
    assert (counts["stored"], counts["duplicate_url"]) == (4, 2)
    assert len(_stored(settings)) == 6


def test_cli_takes_files_as_arguments_and_reports_bad_input_in_one_line(tmp_path: Path):
    path = _archive(tmp_path / "a.jsonl", [_record(1), _record(2)])
    runner = CliRunner()
    result = runner.invoke(main, ["ingest", str(path), "--field", "url=link"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["stored"] == 2
    status = runner.invoke(main, ["status"])
    assert "ingest of 1 file(s)" in status.output and "stored 2" in status.output
    page = TestClient(create_app(load_settings(), token=""),
                      base_url="http://127.0.0.1").get("/crawl")
    assert page.status_code == 200 and "ingest of 1 file(s)" in page.text
    missing = runner.invoke(main, ["ingest", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 1
    assert missing.output.strip() == f"parawire: error: archive file not found: {tmp_path}/nope.jsonl"
    none = runner.invoke(main, ["ingest"])
    assert none.exit_code == 2 and "Missing argument 'FILES…'" in none.output


def test_unknown_field_in_a_flag_fails_before_a_run_opens(tmp_path: Path):
    settings = load_settings(data_dir=tmp_path / "data")
    path = _archive(tmp_path / "a.jsonl", [_record(1)])
    with pytest.raises(ParawireError, match="unknown article field 'body'"):
        INGEST(settings, {"files": [str(path)], "fields": ["body=text"]})
    assert store_of(settings).crawl_runs() == []
