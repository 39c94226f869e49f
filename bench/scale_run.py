"""The real-scale run: AllSides news through ingest → annotate → index → stories → embed →
align → export, measured per stage.

    nice -n 10 .venv/bin/python bench/scale_run.py --articles 1500 [--processes 2]
    scripts/with-services.sh nice -n 10 .venv/bin/python bench/scale_run.py --articles 1500 \
        --workers 2

`--articles N` takes whole publication days of ../shared/data/allsides (the latest days
with a date not in the future, going back until N articles are reached; 0: all 37,554
articles, the undated ones too), so that an event's several outlets stay together. Each
stage runs in a process of its own (Celery eager, as `parawire <stage>` runs it), so that
its wall time, CPU time (every process it starts, the annotator's fork-server workers too:
this script adopts orphaned descendants and reaps them) and peak RSS are its alone. Per
stage the result has throughput (articles/s, words/s, sentences/s, references/s), store
and index size on disk, and the stage's counts (references, candidates, pairs, each
filter's drops). With `--workers N` (and a Redis broker: --broker, else the
PARAWIRE_TEST_REDIS_URL that scripts/with-services.sh sets), alignment runs a second time,
as `align_workers`, on N real Celery workers (`parawire worker --concurrency 1` each) over
a copy of the store and index taken before either alignment: its CPU time and peak RSS
are the client's and the workers' (their pool processes included; peak RSS read from /proc before
they stop; worker start-up counts too). Results go to bench/results/scale_run-<N>.json,
and each stage's to <work>/stages.json as it ends: `--work W --stages annotate,index,...`
resumes a stopped run (every stage is idempotent) and reports the stages already done.
Export exports the eager run, or the workers' where the eager align has not run.

`--interrupt STAGE=SECONDS` (annotate or align; repeatable) stops that stage on purpose with
Ctrl-C after so many seconds, records what it had stored and how its run ended, then runs it
again to resume; the stage's times are both passes'. The result then says whether anything
was lost or doubled: every article annotated once, and the resumed eager alignment compared
row by row with the workers' (`--workers`), which nothing interrupted.

Ctrl-C (or SIGTERM) to this script stops the stage running the same way (the alignment on
Celery workers, `align_workers`, runs to its end first), records its pass in
<work>/passes.json and ends: a run too long for one sitting (the whole archive) goes on
later with `--work W --stages <that stage>,<the ones after>`, and the stage's times then add
up every pass (`interrupted_passes`).
"""

from __future__ import annotations

import argparse
import ctypes
import gzip
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

from common import SHARED_DATA, report
from scale_checks import (
    annotation_integrity,
    compare_runs,
    done_so_far,
    latest_run,
    pair_breakdown,
    story_sizes,
)

ALLSIDES = SHARED_DATA / "allsides" / "articles.jsonl.gz"
STAGES = ("ingest", "annotate", "index", "stories", "embed", "align", "export")
ORDER = (*STAGES[:6], "align_workers", *STAGES[6:])
INTERRUPTIBLE = ("annotate", "align")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PR_SET_CHILD_SUBREAPER = 36


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
            "peak_rss_mb": round(max(own.ru_maxrss, children.ru_maxrss) / 1024),
            "counts": {k: v for k, v in counts.items() if k not in ("log", "path")}}


def _size_mb(path: Path) -> float:
    files = [path] if path.is_file() else list(path.rglob("*")) if path.is_dir() else []
    return round(sum(f.stat().st_size for f in files if f.is_file()) / 2**20, 1)


def _process_tree(pid: int) -> list[int]:
    """A process and its descendants (a Celery worker and its pool processes), from /proc."""
    parents: dict[int, list[int]] = defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.read_text().rsplit(")", 1)[1].split()[1])].append(
                int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(parents.get(tree[-1], []))
    return tree


def _usage(pids: list[int]) -> tuple[float, int]:
    """CPU seconds (with reaped children) and the largest peak RSS in MB of these processes."""
    cpu, peak = 0.0, 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        cpu += sum(int(f) for f in fields[11:15]) / CLOCK_TICKS  # utime stime cutime cstime
        hwm = next((line.split()[1] for line in status.splitlines()
                    if line.startswith("VmHWM:")), "0")
        peak = max(peak, int(hwm) // 1024)
    return cpu, peak


def _with_workers(count: int, broker: str, data_dir: Path, command: list[str]
                  ) -> subprocess.CompletedProcess:
    """Run a stage child with `count` Celery workers on the broker; its result gets the
    workers' CPU time and peak RSS added."""
    env = {**os.environ, "PARAWIRE_DATA_DIR": str(data_dir), "PARAWIRE_BROKER__URL": broker}
    workers = [subprocess.Popen(
        [sys.executable, "-m", "parawire", "worker", "--concurrency=1", "--without-gossip",
         "--without-mingle", "-l", "warning", "-n", f"scale{k}@%h"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in range(count)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
        cpu, peak = _usage([pid for worker in workers for pid in _process_tree(worker.pid)])
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    if done.returncode == 0:
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result.update(workers=count, workers_cpu_s=round(cpu, 1), workers_peak_rss_mb=peak,
                      peak_rss_mb=max(result["peak_rss_mb"], peak))
        done.stdout = json.dumps(result)
    return done


def _become_subreaper() -> None:
    """Adopt orphaned descendants (a stage's fork server and its workers outlive the stage
    process), so that their CPU time reaches this process when they are reaped."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _children_cpu(settle_s: float = 30.0) -> float:
    """CPU seconds of every reaped descendant, after reaping those that are ending (waits
    up to `settle_s` for adopted ones to exit)."""
    deadline = time.monotonic() + settle_s
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break  # no child left
        if pid == 0:
            time.sleep(0.2)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class _StopAsked:
    """Set when this script is asked to stop (Ctrl-C or SIGTERM): the stage running is
    stopped as Ctrl-C stops it, its pass recorded, and the run left to resume."""

    asked = False

    @classmethod
    def listen(cls) -> None:
        def ask(_signal: int, _frame: object) -> None:
            cls.asked = True
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, ask)


def _stoppable(command: list[str], after_s: float | None) -> tuple[int, str, str, bool, float]:
    """Run a stage child in a session of its own, stopping it as Ctrl-C does (SIGINT to its
    process group) after `after_s` seconds or when this script is asked to stop; its return
    code, output, error output, whether it was stopped, and its wall seconds."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    stopped = False
    while True:
        try:
            out, err = child.communicate(timeout=1)
            break
        except subprocess.TimeoutExpired:
            due = after_s is not None and time.perf_counter() - started > after_s
            if not stopped and (due or _StopAsked.asked):
                os.killpg(child.pid, signal.SIGINT)
                stopped = True
    return child.returncode, out, err, stopped, time.perf_counter() - started


def _interrupted_pass(command: list[str], after_s: float | None, stage: str, data_dir: Path
                      ) -> dict[str, Any]:
    """Run a stage child, stopped as Ctrl-C stops it after `after_s` seconds (or when this
    script is asked to stop); what it had stored by then and how it ended."""
    before = _children_cpu()
    returncode, _, err, stopped, wall = _stoppable(command, after_s)
    return {"interrupted_after_s": round(wall, 1) if stopped else None,
            "wall_s": round(wall, 1),
            "cpu_s": round(_children_cpu() - before, 1),
            "returncode": returncode, "stopped": returncode != 0,
            "last_line": (err.strip().splitlines() or [""])[-1][:300],
            "stored_by_then": done_so_far(stage, data_dir)}


def _leave_to_resume(work: Path, passes: dict[str, list[dict[str, Any]]], name: str,
                     earlier: list[dict[str, Any]]) -> None:
    """Record the stopped passes of stage `name` in <work>/passes.json (a later run with
    --stages adds them to the stage's times) and end, saying how to resume."""
    passes[name] = earlier
    (work / "passes.json").write_text(json.dumps(passes, indent=1))
    sys.exit(f"stopped on request during {name}; resume with --work {work} --stages "
             f"{name},... (the stopped passes are in {work / 'passes.json'})")


def _read_back(work: Path, stages: dict[str, Any]) -> dict[str, Any]:
    """The run's stories, pairs and integrity, read from its store(s)."""
    data_dir, copy = work / "data", work / "workers" / "data"
    if not (data_dir / "parawire.db").is_file():
        return {}
    checks: dict[str, Any] = {"annotation": annotation_integrity(data_dir),
                              "stories": story_sizes(data_dir)}
    runs = {name: stages[name]["counts"]["run_id"] for name in ("align", "align_workers")
            if "run_id" in stages.get(name, {}).get("counts", {})}
    if "align" in runs:
        checks["pairs"] = pair_breakdown(data_dir, runs["align"])
        checks["align_run"] = latest_run(data_dir)
    if len(runs) == 2:
        checks["eager_vs_workers"] = compare_runs((data_dir, runs["align"]),
                                                  (copy, runs["align_workers"]))
    return checks


def _throughput(stage: str, result: dict, taken: dict, sentences: int) -> dict[str, float]:
    wall = max(result["wall_s"], 1e-9)
    rates = {"articles_per_s": taken["articles"] / wall, "words_per_s": taken["words"] / wall}
    if stage in ("annotate", "index", "align", "align_workers"):
        rates["sentences_per_s"] = sentences / wall
    if stage in ("align", "align_workers"):
        rates["references_per_s"] = result["counts"].get("references", 0) / wall
    return {k: round(v, 1) for k, v in rates.items()}


def _settings_used() -> dict[str, Any]:
    """The settings that decide what the run embeds and aligns (from parawire.toml and the
    PARAWIRE_* environment, as each stage's process reads them)."""
    from parawire.config import load_settings

    settings = load_settings()
    return {"align.method": settings.align.method, "align.within": settings.align.within,
            "vectors.embed": settings.vectors.embed, "vectors.models": settings.vectors.models}


def _parse_interrupts(parser: argparse.ArgumentParser, given: list[str]) -> dict[str, float]:
    interrupts: dict[str, float] = {}
    for text in given:
        stage, _, seconds = text.partition("=")
        try:
            interrupts[stage] = float(seconds)
        except ValueError:
            parser.error(f"--interrupt {text}: expected STAGE=SECONDS")
        if stage not in INTERRUPTIBLE:
            parser.error(f"--interrupt {text}: only {' or '.join(INTERRUPTIBLE)} can be stopped")
    return interrupts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=1500)
    parser.add_argument("--processes", type=int, default=2, help="nlp.processes")
    parser.add_argument("--work", type=Path, help="Working folder [default: a new temp one].")
    parser.add_argument("--workers", type=int, default=0,
                        help="Also align on this many real Celery workers [default: 0, none].")
    parser.add_argument("--broker", default=os.environ.get("PARAWIRE_TEST_REDIS_URL", ""),
                        help="Redis URL for --workers [default: $PARAWIRE_TEST_REDIS_URL].")
    parser.add_argument("--stages", help="Run only these stages (comma-separated, of "
                        f"{','.join(ORDER)}) in --work, keeping the results stored there of "
                        "the others: to resume a stopped run [default: all].")
    parser.add_argument("--interrupt", action="append", default=[], metavar="STAGE=SECONDS",
                        help="Stop this stage (annotate or align) with Ctrl-C after SECONDS, "
                        "then resume it [default: none].")
    parser.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)
    parser.add_argument("--export-run", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    interrupts = _parse_interrupts(parser, args.interrupt)
    _become_subreaper()
    work = args.work or Path(tempfile.mkdtemp(prefix="parawire-scale-"))
    data_dir, sample = work / "data", work / "sample.jsonl"
    if args.stage:  # a child: one stage, its result on stdout
        signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with &
        print(json.dumps(run_one(args.stage, data_dir, args.processes, sample, args.export_run)))
        return
    if args.workers and not args.broker:
        parser.error("--workers needs a Redis broker: --broker URL, or run under "
                     "scripts/with-services.sh")
    work.mkdir(parents=True, exist_ok=True)
    taken = sample_days(args.articles, sample)
    print(f"sample: {taken} in {work}", file=sys.stderr)
    _StopAsked.listen()
    done_file = work / "stages.json"
    passes_file = work / "passes.json"
    passes: dict[str, list[dict[str, Any]]] = (
        json.loads(passes_file.read_text()) if args.stages and passes_file.is_file() else {})
    stages: dict[str, Any] = (json.loads(done_file.read_text())
                              if args.stages and done_file.is_file() else {})
    order = [name for name in ORDER if name != "align_workers" or args.workers]
    if args.stages:
        if unknown := set(args.stages.split(",")) - set(ORDER):
            parser.error(f"unknown --stages {', '.join(sorted(unknown))}")
        order = [name for name in ORDER if name in args.stages.split(",")]
    sentences = max((s["counts"].get("sentences", 0) for s in stages.values()), default=0)
    copy = work / "workers" / "data"
    if not args.stages:
        shutil.rmtree(copy.parent, ignore_errors=True)
    for name in order:
        stage = name.removesuffix("_workers")
        if stage == "align" and args.workers and not copy.is_dir():
            # before either alignment: the workers align what the eager run aligns
            shutil.copytree(data_dir, copy)
        if name == "align_workers" and "align" in stages and not copy.is_dir():
            sys.exit(f"align_workers needs {copy}, copied before the eager align: run both "
                     "with --workers")
        aligned = "align" if "align" in stages or name == "align" else "align_workers"
        export_run = stages.get(aligned, {}).get("counts", {}).get("run_id")
        # export exports the eager run, or the workers' where no eager align ran
        home = work / "workers" if name == "align_workers" or (
            name == "export" and aligned == "align_workers") else work
        command = [sys.executable, __file__, "--stage", stage, "--work", str(home),
                   "--processes", str(args.processes)]
        if export_run is not None:
            command += ["--export-run", str(export_run)]
        earlier: list[dict[str, Any]] = passes.get(name, [])
        if name in interrupts:
            earlier = [*earlier, _interrupted_pass(command, interrupts[name], stage,
                                                   home / "data")]
        if _StopAsked.asked:
            _leave_to_resume(work, passes, name, earlier)
        before = _children_cpu()
        if name != stage:
            done = _with_workers(args.workers, args.broker, copy, command)
            returncode, out, err = done.returncode, done.stdout, done.stderr
        else:
            returncode, out, err, stopped, wall = _stoppable(command, None)
            if stopped:
                earlier.append({"interrupted_after_s": round(wall, 1), "wall_s": round(wall, 1),
                                "cpu_s": round(_children_cpu() - before, 1),
                                "returncode": returncode, "stopped": True,
                                "last_line": (err.strip().splitlines() or [""])[-1][:300],
                                "stored_by_then": done_so_far(stage, home / "data")})
                _leave_to_resume(work, passes, name, earlier)
        if returncode != 0:
            sys.exit(f"{name} failed:\n{err[-3000:]}")
        result = json.loads(out.strip().splitlines()[-1])
        result["cpu_s"] = round(_children_cpu() - before, 1)
        if earlier:
            result.update(interrupted_passes=earlier,
                          wall_s=round(result["wall_s"] + sum(e["wall_s"] for e in earlier), 1),
                          cpu_s=round(result["cpu_s"] + sum(e["cpu_s"] for e in earlier), 1))
        passes.pop(name, None)
        (work / "passes.json").write_text(json.dumps(passes, indent=1))
        sentences = result["counts"].get("sentences", sentences)
        result["throughput"] = _throughput(name, result, taken, sentences)
        result["store_mb"] = _size_mb(home / "data" / "parawire.db") + \
            _size_mb(home / "data" / "parawire.db-wal")
        result["index_mb"] = _size_mb(home / "data" / "index")
        stages[name] = result
        done_file.write_text(json.dumps(stages, indent=1))
        print(f"{name}: {json.dumps(result)}", file=sys.stderr)
    pairs = stages.get("align", stages.get("align_workers", {})).get("counts", {}).get("pairs", 0)
    report(f"scale_run-{args.articles}", {
        "sample": taken, "nlp_processes": args.processes, "settings": _settings_used(),
        "stages": stages,
        "total_wall_s": round(sum(s["wall_s"] for s in stages.values()), 1),
        "peak_rss_mb": max(s["peak_rss_mb"] for s in stages.values()),
        "pairs_per_1000_sentences": round(1000 * pairs / max(1, sentences), 2),
        "read_back": _read_back(work, stages),
        "note": "shared 2-core machine (other engineers' jobs ran alongside); run niced",
    })


if __name__ == "__main__":
    main()
