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

Headlines and dates are scored per half against titles.json (the headline as the page
shows it, the publication day; crawler.quality.titles_by_half): headline exact, exact after
typography folding, date exact, exact or a defensible alternative, within a day, the
misses by kind (typography, suffix, kicker, truncation, other headline, date off by a day,
other date, no date), each against plain trafilatura's title and date (bare_extraction
with its metadata) on the same pages; and the stored titles and body lines the page does not
hold as they are (`changed_lines`: whitespace and entities aside).
"""

from __future__ import annotations

import tempfile
import time
from datetime import date
from pathlib import Path

from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.crawler.quality import (
    crawl_and_score,
    failure_kinds,
    load_saved_pages,
    titles_by_half,
)
from parawire.crawler.title_quality import load_title_truth


def main() -> None:
    folder = SHARED_DATA / "extraction"
    pages = load_saved_pages(folder)
    settings = load_settings(data_dir=Path(tempfile.mkdtemp(prefix="parawire-bench-")))
    started = time.perf_counter()
    result = crawl_and_score(settings, pages)
    counts = {k: v for k, v in result.pop("counts").items() if k not in {"run_id", "log"}}
    seconds = round(time.perf_counter() - started, 1)
    titles = titles_by_half(pages, result.pop("stored"), load_title_truth(folder))
    report("extraction_quality", {"seconds": seconds, "crawl": counts, **result,
                                  "titles": titles,
                                  "failure_kinds": failure_kinds(pages, date.today())})


if __name__ == "__main__":
    main()
