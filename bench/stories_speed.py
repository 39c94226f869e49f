"""Grouping the whole AllSides archive (37,554 articles) into stories, against a plain read.

    nice -n 10 .venv/bin/python bench/stories_speed.py

The archive is stored once in a SQLite store under bench/.cache/stories-allsides/ (a child
process; not timed). The measured process then reads every article as the stage reads it
(id, outlet, language, day, title and the start of the text: the plain pass), and runs the
stories stage over a copy of that store: every dated article grouped, day by day, online
([stories] defaults; undated articles skipped and counted). Reports both times, their
ratio, the same in CPU seconds of the process (the machine is shared: wall time depends on
the load, also reported), the stage's counts and the process's peak RSS.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import report
from stories_data import allsides, stored

from parawire.aligner.stories.stage import CHARS_PER_WORD
from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of

CACHE = Path(__file__).with_name(".cache") / "stories-allsides"


def build() -> None:
    """Store the archive under CACHE (once)."""
    if not (CACHE / "parawire.db").is_file():
        partial = CACHE.with_name(CACHE.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        stored(list(allsides()), data_dir=partial)
        partial.rename(CACHE)


def main() -> None:
    if sys.argv[1:] == ["--build"]:
        build()
        return
    subprocess.run([sys.executable, __file__, "--build"], check=True)
    data = Path(tempfile.mkdtemp(prefix="parawire-stories-speed-"))
    shutil.copy(CACHE / "parawire.db", data / "parawire.db")
    settings = load_settings(data_dir=data)
    store = store_of(settings)
    started, cpu = time.perf_counter(), time.process_time()
    articles = store.articles_without_story(settings.stories.lead_words * CHARS_PER_WORD)
    read, read_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    counts = run_stage(settings, "stories")
    grouped, grouped_cpu = time.perf_counter() - started, time.process_time() - cpu
    stories = store.story_counts()
    shutil.rmtree(data)
    report("stories_speed", {
        "articles": len(articles), "read_seconds": round(read, 2),
        "stories_seconds": round(grouped, 2), "ratio_to_read": round(grouped / read, 1),
        "read_cpu_seconds": round(read_cpu, 2), "stories_cpu_seconds": round(grouped_cpu, 2),
        "cpu_ratio_to_read": round(grouped_cpu / read_cpu, 1), "load_average": os.getloadavg(),
        "stage_counts": counts, "stories": stories,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    })


if __name__ == "__main__":
    main()
