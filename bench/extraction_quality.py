"""Extraction quality on 181 real news pages with their expected body text.

    .venv/bin/python bench/extraction_quality.py

Serves ../shared/data/extraction on 127.0.0.1, crawls it through the news spider (one
outlet per language, all topics, every date since 1995), and scores each stored body text
against the expected one by token precision, recall and F1: the mean per page (pages the
crawl did not store count as empty text) and micro figures over all tokens, for all pages
and for the stored ones only. It reports each half of the fixed split by domain
(crawler.quality: TUNE, on which extraction choices were tuned, and CHECK, held out) with
plain trafilatura's figures (trafilatura.extract, defaults) on the same pages, and per
half the pages showing each failure kind that needs no expected title or date
(crawler.quality.failure_kinds), parawire's extraction against plain trafilatura's.
"""

from __future__ import annotations

import tempfile
import time
from datetime import date
from pathlib import Path

from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.crawler.quality import crawl_and_score, failure_kinds, load_saved_pages


def main() -> None:
    pages = load_saved_pages(SHARED_DATA / "extraction")
    settings = load_settings(data_dir=Path(tempfile.mkdtemp(prefix="parawire-bench-")))
    started = time.perf_counter()
    result = crawl_and_score(settings, pages)
    counts = {k: v for k, v in result.pop("counts").items() if k not in {"run_id", "log"}}
    seconds = round(time.perf_counter() - started, 1)
    report("extraction_quality", {"seconds": seconds, "crawl": counts, **result,
                                  "failure_kinds": failure_kinds(pages, date.today())})


if __name__ == "__main__":
    main()
