"""Ingest speed: articles/s of `parawire ingest` into SQLite against a plain loop
(json.loads + INSERT, one commit per ingest.batch_size records) in the same process.

    nice -n 10 .venv/bin/python bench/ingest_speed.py [--articles 3000]

Both read the first N AllSides articles (../shared/data/allsides) from one JSONL file.
The plain loop only parses and inserts; the ingest stage also validates, maps fields,
hashes, fingerprints (SimHash), assigns topics and checks URL, content and near-duplicate
copies. CPU-time figures are kept beside wall-clock ones (the machine is shared).
Results go to bench/results/ingest_speed.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sqlite3
import tempfile
import time
from itertools import islice
from pathlib import Path

from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.crawler import INGEST

ALLSIDES = SHARED_DATA / "allsides" / "articles.jsonl.gz"


def plain_loop(path: Path, database: Path, batch_size: int) -> int:
    """json.loads each line and insert it, committing every batch_size rows."""
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE articles (id INTEGER PRIMARY KEY, url TEXT UNIQUE, "
                       "source TEXT, published TEXT, title TEXT, text TEXT)")
    stored = 0
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            connection.execute("INSERT OR IGNORE INTO articles (url, source, published, title, text) "
                               "VALUES (?, ?, ?, ?, ?)", (record["url"], record["outlet"],
                                                          record["date"], record["title"],
                                                          record["text"]))
            stored += 1
            if stored % batch_size == 0:
                connection.commit()
    connection.commit()
    connection.close()
    return stored


def _timed(run) -> tuple[object, float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=3000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="parawire-ingest-bench-"))
    sample = work / "sample.jsonl"
    with gzip.open(ALLSIDES, "rt", encoding="utf-8") as source:
        sample.write_text("".join(islice(source, args.articles)), encoding="utf-8")
    settings = load_settings(data_dir=work / "data")
    plain, plain_s, plain_cpu = _timed(
        lambda: plain_loop(sample, work / "plain.db", settings.ingest.batch_size))
    counts, ingest_s, ingest_cpu = _timed(
        lambda: INGEST(settings, {"files": [str(sample)], "fields": ["source=outlet"]}))
    again, again_s, _ = _timed(
        lambda: INGEST(settings, {"files": [str(sample)], "fields": ["source=outlet"]}))
    assert isinstance(counts, dict) and isinstance(again, dict)
    report("ingest_speed", {
        "articles": args.articles,
        "plain_loop": {"stored": plain, "seconds": round(plain_s, 2), "cpu_s": round(plain_cpu, 2),
                       "articles_per_s": round(args.articles / plain_s)},
        "ingest": {"counts": {k: v for k, v in counts.items() if k not in ("log", "run_id")},
                   "seconds": round(ingest_s, 2), "cpu_s": round(ingest_cpu, 2),
                   "articles_per_s": round(args.articles / ingest_s)},
        "ingest_again": {"stored": again.get("stored", 0), "seconds": round(again_s, 2),
                         "records_per_s": round(args.articles / again_s)},
        "ratio_ingest_to_plain_wall": round(plain_s / ingest_s, 3),
        "ratio_ingest_to_plain_cpu": round(plain_cpu / ingest_cpu, 3),
        "note": "shared 2-core machine; the CPU-time ratio is the steadier figure",
    })


if __name__ == "__main__":
    main()
