"""A disk that fills up during a crawl: the run fails with the reason and the command exits
non-zero (a small tmpfs holds the store; skipped where one cannot be mounted)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from parawire.config import load_settings
from parawire.crawler import CRAWL
from parawire.demo import date_range, serve_demo, sources_toml
from parawire.errors import ParawireError
from parawire.store import open_store


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=True)


@pytest.mark.timeout(120)
def test_a_disk_that_fills_during_a_crawl_fails_the_run(tmp_path, small_disk):
    url = f"sqlite:///{small_disk / 'parawire.db'}"
    settings = load_settings(data_dir=tmp_path / "data", store={"url": url})
    open_store(url).engine.dispose()  # the schema in place, then the disk almost full
    filler = shutil.disk_usage(small_disk).free - 48 * 1024
    (small_disk / "filler").write_bytes(b"\0" * max(filler, 0))
    first, last = date_range()
    with serve_demo() as base:
        sources = tmp_path / "sources.toml"
        sources.write_text(sources_toml(base))
        with pytest.raises(ParawireError) as failed:
            CRAWL(settings, {"since": first.date(), "until": last.date(),
                             "sources": str(sources)})
    (run,) = open_store(url).crawl_runs()
    assert run.status == "failed", run
    assert "full" in run.reason, run.reason
    assert str(failed.value).startswith(f"crawl run {run.id} failed: ")
