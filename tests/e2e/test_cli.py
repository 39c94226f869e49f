"""The parawire CLI end to end, as a user runs it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT


def parawire(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "parawire", *args], cwd=ROOT, text=True,
                          capture_output=True, env={**os.environ, **(env or {})}, timeout=900)


@pytest.mark.within_story
@pytest.mark.timeout(900)
def test_demo_mines_cross_outlet_pairs_and_is_idempotent(tmp_path):
    env = {"PARAWIRE_DATA_DIR": str(tmp_path / "data")}
    first = parawire("demo", env=env)
    assert first.returncode == 0, first.stderr
    mined, kept, written, flipped = (int(re.search(pattern, first.stdout).group(1)) for pattern in (
        r"pairs mined: (\d+)", r"pairs kept:  (\d+)", r"examples written: (\d+)",
        r"and (\d+) flipped copies"))
    cross = int(re.search(r"\((\d+) with input and target from different outlets",
                          first.stdout).group(1))
    assert cross > 0
    stories, multi = map(int, re.search(r"stories: +(\d+) \((\d+) told by several outlets",
                                        first.stdout).groups())
    assert stories >= multi > 0
    corpus = tmp_path / "data" / "corpus"
    (folder,) = corpus.glob("run-*-jsonl")
    sheet = json.loads((folder / "datasheet.json").read_text())
    assert (sheet["pairs_mined"], sheet["pairs_kept"], sheet["examples_written"],
            sheet["flipped_copies"]) == (mined, kept, written, flipped)
    assert f"pairs mined by the run: {mined}" in (folder / "datasheet.md").read_text()
    records = [json.loads(line) for name in ("train", "valid", "test")
               for line in (folder / f"{name}.jsonl").read_text().splitlines()]
    assert len(records) == written == kept + flipped
    assert records and all(r["input"] != r["target"] for r in records)
    assert {"input_outlet", "target_outlet", "input_published", "input_url", "target_title",
            "score"} <= set(records[0])
    # every exported pair passed beta (align.beta, 0.5) and is useful: graded 3 or more
    # (the pair model, not the engine's score, decides; it reads no source's score)
    assert all(r["score"] >= 0.5 and r["grade"] >= 3 for r in records)
    assert any(r["input_outlet"] != r["target_outlet"] for r in records)

    second = parawire("demo", env=env)
    assert second.returncode == 0, second.stderr
    assert "(stored this run: 0)" in second.stdout
    again = [json.loads(line) for name in ("train", "valid", "test")
             for line in (folder / f"{name}.jsonl").read_text().splitlines()]
    assert again == records

    status = parawire("status", env=env)
    assert status.returncode == 0 and "alignment runs:" in status.stdout
    done, selected = map(int, re.search(r"references done (\d+) of (\d+)",
                                        status.stdout).groups())
    assert done == selected > 0
    assert f"stories {stories} (told by several outlets {multi}," in status.stdout


@pytest.mark.parametrize(("args", "env", "message"), [
    (["align"], {"PARAWIRE_ALIGN__BETA": "2"}, "bad config value for 'align.beta'"),
    (["crawl", "--sources", "/nonexistent.toml"], {}, "sources file not found"),
    (["crawl", "--since", "2026-03-09", "--until", "2026-03-01"], {}, "is after --until"),
    (["align", "--since", "2026-03-10", "--until", "2026-03-01"], {},
     "--since 2026-03-10 is after --until 2026-03-01"),
    (["export"], {}, "no alignment run to export"),
    (["beat"], {}, "broker.url is empty"),
    (["daily"], {"PARAWIRE_CRAWL__SOURCES": "/nonexistent.toml"}, "sources file not found"),
    (["--config", "/nonexistent.toml", "status"], {}, "config file not found"),
    (["status"], {"PARAWIRE_STORE__URL": "postgresql+psycopg://x@127.0.0.1:9/none"},
     "cannot reach the store"),
])
def test_bad_input_is_one_line_and_non_zero(tmp_path, args, env, message):
    result = parawire(*args, env={"PARAWIRE_DATA_DIR": str(tmp_path), **env})
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


@pytest.mark.timeout(300)
def test_ctrl_c_exits_130_with_one_line(tmp_path):
    """Ctrl-C in a terminal interrupts the whole foreground process group."""
    data = tmp_path / "data"
    demo = subprocess.Popen([sys.executable, "-m", "parawire", "demo"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PARAWIRE_DATA_DIR": str(data)})
    deadline = time.monotonic() + 120
    while not (data / "parawire.db").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    os.killpg(demo.pid, signal.SIGINT)
    _, stderr = demo.communicate(timeout=120)
    assert demo.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == "parawire: interrupted"
