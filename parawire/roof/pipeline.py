"""Runs stages through Celery (eagerly or on workers) and chains them into the pipeline."""

from __future__ import annotations

import threading
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from tqdm import tqdm

from parawire.aligner import AlignParams, DatasetOptions, finish_run, start_run
from parawire.config import Settings
from parawire.roof import stages, tasks
from parawire.store import Store


def _wait(result: Any) -> Any:
    return result.get(disable_sync_subtasks=False) if hasattr(result, "get") else result


def crawl(settings: Settings, since: date, until: date, sources: str | None = None,
          scope: dict | None = None) -> dict:
    """Crawl stage, as a task (scope: outlets, topics, all_topics; see crawler.CrawlScope)."""
    tasks.configure(settings)
    return _wait(tasks.crawl_task.delay(since.isoformat(), until.isoformat(), sources, scope))


def annotate(settings: Settings) -> dict:
    """Annotate stage, as a task."""
    tasks.configure(settings)
    return _wait(tasks.annotate_task.delay())


def index(settings: Settings, rebuild: bool = False) -> dict:
    """Index stage, as a task."""
    tasks.configure(settings)
    return _wait(tasks.index_task.delay(rebuild))


def align(settings: Settings, params: AlignParams) -> dict:
    """Open the run for `params` and fan its pending references out as a chord of batches."""
    tasks.configure(settings)
    store = stages.store_of(settings)
    run, pending = start_run(store, params)
    assert run.id is not None
    if not pending:
        return {"run_id": run.id, **finish_run(store, run.id, [])}
    workflow = tasks.alignment_chord(run.id, params, pending, settings.align.batch_size)
    with _RunProgress(store, run.id, len(pending)):
        counts = _wait(workflow.apply_async())
    return {"run_id": run.id, **counts}


class _RunProgress:
    """A progress bar fed by the store, so it moves whether batches run here or on workers."""

    def __init__(self, store: Store, run_id: int, total: int) -> None:
        self.store, self.run_id = store, run_id
        self.start = len(store.done_references(run_id))
        self.bar = tqdm(total=total, desc="align", unit="reference", disable=None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _update(self) -> None:
        done = len(self.store.done_references(self.run_id)) - self.start
        self.bar.update(max(0, min(done, self.bar.total) - self.bar.n))

    def _poll(self) -> None:
        while not self.stop.wait(0.5):
            self._update()

    def __enter__(self) -> _RunProgress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self._update()
        self.bar.close()


def export(settings: Settings, run_id: int | None = None, out: Path | None = None,
           fmt: str = "jsonl", options: DatasetOptions | None = None) -> dict:
    """Export stage, as a task."""
    tasks.configure(settings)
    return _wait(tasks.export_task.delay(run_id, str(out) if out else None, fmt,
                                         asdict(options) if options else None))


def daily(settings: Settings, day: date) -> dict:
    """The daily job for `day` (crawl per outlet → annotate → index → align), as tasks;
    returns the crawl runs it made and the alignment's counts."""
    from parawire.crawler import load_sources, sources_path

    tasks.configure(settings)
    outlets = len(load_sources(sources_path(settings)).outlets)
    store = stages.store_of(settings)
    before = max((run.id or 0 for run in store.crawl_runs(limit=1)), default=0)
    align = _wait(tasks.daily_task.delay(day.isoformat()))
    crawls = [{"run_id": run.id, "outlets": run.parameters.get("outlets"), **run.counts}
              for run in reversed(store.crawl_runs(limit=outlets)) if (run.id or 0) > before]
    return {"crawl": crawls, "align": align}


def run_all(settings: Settings, since: date, until: date, params: AlignParams,
            sources: str | None = None, out: Path | None = None) -> dict[str, dict]:
    """crawl → annotate → index → align → export; returns each stage's counts."""
    report = {"crawl": crawl(settings, since, until, sources), "annotate": annotate(settings),
              "index": index(settings)}
    report["align"] = align(settings, params)
    report["export"] = export(settings, report["align"]["run_id"], out)
    return report
