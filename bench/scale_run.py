"""The real-scale run: AllSides news through ingest → annotate → index → align → export,
measured per stage.

    nice -n 10 .venv/bin/python bench/scale_run.py --articles 1500 [--processes 2]

`--articles N` takes whole publication days of ../shared/data/allsides (the latest days
with a date not in the future, going back until N articles are reached; 0: all 37,554
articles, the undated ones too), so that an event's several outlets stay together. Each
stage runs in a process of its own (Celery eager, as `parawire <stage>` runs it), so that
its wall time, CPU time (its own and its children's, e.g. the nlp.pipe workers) and peak
RSS are its alone. Per
stage the result has throughput (articles/s, words/s, sentences/s, references/s), store
and index size on disk, and the stage's counts (references, candidates, pairs, each
filter's drops). Results go to bench/results/scale_run-<N>.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

from common import SHARED_DATA, report

ALLSIDES = SHARED_DATA / "allsides" / "articles.jsonl.gz"
STAGES = ("ingest", "annotate", "index", "align", "export")


def sample_days(articles: int, path: Path) -> dict[str, Any]:
    """Write the latest whole days of AllSides holding at least `articles` articles (all of
    them for 0) to `path`; returns what was taken."""
    with gzip.open(ALLSIDES, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    if articles:
        by_day: dict[str, list[dict]] = defaultdict(list)
        today = date.today().isoformat()
        for record in records:
            if record["date"] and record["date"] <= today:  # a few dates are in the future
                by_day[record["date"]].append(record)
        chosen: list[dict] = []
        for day in sorted(by_day, reverse=True):
            if len(chosen) >= articles:
                break
            chosen.extend(by_day[day])
        records = sorted(chosen, key=lambda r: r["date"])
    with path.open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(record) + "\n" for record in records)
    days = sorted({r["date"] for r in records if r["date"]})
    return {"articles": len(records), "words": sum(len(r["text"].split()) for r in records),
            "outlets": len({r["outlet"] for r in records}), "first_day": days[0],
            "last_day": days[-1], "days": len(days)}


def run_one(stage: str, data_dir: Path, processes: int, sample: Path,
            export_run: int | None) -> dict[str, Any]:
    """(In the stage's own process.) Run one stage; its counts, times and peak RSS."""
    from parawire.config import load_settings
    from parawire.roof.pipeline import run_stage

    settings = load_settings(data_dir=data_dir, nlp={"processes": processes})
    scope: dict[str, Any] = {
        "ingest": {"files": [str(sample)], "fields": ["source=outlet"]},
        "export": {"run_id": export_run}}.get(stage, {})
    started = time.perf_counter()
    counts = run_stage(settings, stage, scope)
    wall = time.perf_counter() - started
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
    return {"wall_s": round(wall, 1),
            "cpu_s": round(own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime, 1),
            "peak_rss_mb": round(max(own.ru_maxrss, children.ru_maxrss) / 1024),
            "counts": {k: v for k, v in counts.items() if k not in ("log", "path")}}


def _size_mb(path: Path) -> float:
    files = [path] if path.is_file() else list(path.rglob("*")) if path.is_dir() else []
    return round(sum(f.stat().st_size for f in files if f.is_file()) / 2**20, 1)


def _throughput(stage: str, result: dict, taken: dict, sentences: int) -> dict[str, float]:
    wall = max(result["wall_s"], 1e-9)
    rates = {"articles_per_s": taken["articles"] / wall, "words_per_s": taken["words"] / wall}
    if stage in ("annotate", "index", "align"):
        rates["sentences_per_s"] = sentences / wall
    if stage == "align":
        rates["references_per_s"] = result["counts"].get("references", 0) / wall
    return {k: round(v, 1) for k, v in rates.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=1500)
    parser.add_argument("--processes", type=int, default=2, help="nlp.processes")
    parser.add_argument("--work", type=Path, help="Working folder [default: a new temp one].")
    parser.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)
    parser.add_argument("--export-run", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="parawire-scale-"))
    data_dir, sample = work / "data", work / "sample.jsonl"
    if args.stage:  # a child: one stage, its result on stdout
        print(json.dumps(run_one(args.stage, data_dir, args.processes, sample, args.export_run)))
        return
    work.mkdir(parents=True, exist_ok=True)
    taken = sample_days(args.articles, sample)
    print(f"sample: {taken} in {work}", file=sys.stderr)
    stages: dict[str, Any] = {}
    sentences, export_run = 0, None
    for stage in STAGES:
        command = [sys.executable, __file__, "--stage", stage, "--work", str(work),
                   "--processes", str(args.processes)]
        if export_run is not None:
            command += ["--export-run", str(export_run)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"{stage} failed:\n{done.stderr[-3000:]}")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        sentences = result["counts"].get("sentences", sentences)
        export_run = result["counts"].get("run_id") if stage == "align" else export_run
        result["throughput"] = _throughput(stage, result, taken, sentences)
        result["store_mb"] = _size_mb(data_dir / "parawire.db") + \
            _size_mb(data_dir / "parawire.db-wal")
        result["index_mb"] = _size_mb(data_dir / "index")
        stages[stage] = result
        print(f"{stage}: {json.dumps(result)}", file=sys.stderr)
    pairs = stages["align"]["counts"].get("pairs", 0)
    report(f"scale_run-{args.articles}", {
        "sample": taken, "nlp_processes": args.processes, "stages": stages,
        "total_wall_s": round(sum(s["wall_s"] for s in stages.values()), 1),
        "peak_rss_mb": max(s["peak_rss_mb"] for s in stages.values()),
        "pairs_per_1000_sentences": round(1000 * pairs / max(1, sentences), 2),
        "note": "shared 2-core machine (other engineers' jobs ran alongside); run niced",
    })


if __name__ == "__main__":
    main()
