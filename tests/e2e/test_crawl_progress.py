"""`parawire crawl` in a terminal shows a progress bar of the articles it stores."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from parawire.demo import date_range, load_articles, serve_demo, sources_toml
from tests.conftest import ROOT


def _read_all(fd: int) -> str:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.timeout(300)
def test_crawl_shows_articles_stored_as_it_goes(tmp_path):
    first, last = date_range()
    with serve_demo() as base:
        sources = tmp_path / "sources.toml"
        sources.write_text(sources_toml(base))
        controller, terminal = pty.openpty()
        # a terminal 24 rows by 100 columns (a new pty has none, and tqdm fits its width)
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        crawl = subprocess.Popen(
            [sys.executable, "-m", "parawire", "crawl", "--since", f"{first:%Y-%m-%d}",
             "--until", f"{last:%Y-%m-%d}", "--sources", str(sources)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=terminal, text=True,
            env={**os.environ, "PARAWIRE_DATA_DIR": str(tmp_path / "data")})
        os.close(terminal)
        shown = _read_all(controller)
        out, _ = crawl.communicate(timeout=240)
        os.close(controller)
    assert crawl.returncode == 0, shown
    bars = re.findall(r"crawl: (\d+) ?article", shown)
    assert bars, shown
    assert int(bars[-1]) == len(load_articles()), shown
    assert '"stored": ' + str(len(load_articles())) in out
