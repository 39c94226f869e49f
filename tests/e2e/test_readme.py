"""The README's walk-through runs as written: its shell blocks, in order, in one shell in a
clean folder, network-free. A block that needs the network, Docker or a server that runs
until stopped says so in a `<!-- readme-test: skip: why -->` line above it; the test
reports each one it skips, and checks that the corpus folders those blocks name exist.
TOML blocks are sources files: each loads through the crawler's own validation."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import warnings
from pathlib import Path

import pytest

from parawire.crawler import load_sources
from tests.conftest import ROOT

FENCE = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>\w*)\n(?P<body>.*?)\n```", re.S)
SKIP = re.compile(r"<!-- readme-test: skip: (?P<why>.+?) -->")


def _blocks(lang: str) -> list[tuple[str, str | None]]:
    """The README's blocks in one language: their text and why they are skipped (or None)."""
    found = []
    for match in FENCE.finditer((ROOT / "README.md").read_text(encoding="utf-8")):
        if match["lang"] == lang:
            skip = SKIP.search(match["before"])
            found.append((match["body"], skip["why"] if skip else None))
    return found


def test_the_sources_files_in_the_readme_are_valid(tmp_path):
    blocks = _blocks("toml")
    assert blocks
    for number, (body, _) in enumerate(blocks):
        path = tmp_path / f"block-{number}.toml"
        path.write_text(body, encoding="utf-8")
        assert load_sources(path).outlets


@pytest.mark.timeout(600)
def test_the_readme_shell_blocks_run_in_order(tmp_path):
    blocks = _blocks("sh")
    runnable = [body for body, why in blocks if why is None]
    skipped = [(body, why) for body, why in blocks if why is not None]
    assert runnable, "the README has no runnable shell block"
    for body, why in skipped:
        warnings.warn(f"README block skipped ({why}): {body.splitlines()[0]}", stacklevel=1)
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    script = "set -eo pipefail\n" + "\n".join(
        f"echo '--- README block {n}' >&2\n{body}" for n, body in enumerate(runnable))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARAWIRE_")}
    shell = subprocess.Popen(["bash", "-c", script], cwd=tmp_path, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             start_new_session=True)
    try:
        output, _ = shell.communicate(timeout=540)
    finally:
        with contextlib.suppress(ProcessLookupError):  # a background job a failed block left
            os.killpg(shell.pid, signal.SIGTERM)
    assert shell.returncode == 0, output[-6000:]
    corpus = tmp_path / "data" / "corpus"
    assert (corpus / "run-1-jsonl" / "train.jsonl").stat().st_size > 0
    assert (corpus / "run-1-parquet" / "splits" / "train.parquet").is_file()
    assert "alignment runs:" in output
    assert not (tmp_path / "my-sources.toml").exists()  # the demo site stopped and cleaned up
    for body, why in skipped:
        for folder in re.findall(r"data/corpus/[\w-]+", body):
            assert (tmp_path / folder).is_dir(), f"{folder} (named in a block skipped: {why})"


def test_the_readme_names_no_corpus_file_that_export_does_not_write():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"run-N\.jsonl|run-\d+\.jsonl", text)
    assert Path(ROOT / ".env.example").is_file() and ".env.example" in text
