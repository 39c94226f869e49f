"""Runs stages through Celery (eagerly or on workers) and chains them into the pipeline."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date
from typing import Any

from celery import Celery, Signature
from tqdm import tqdm

from parawire.config import Settings
from parawire.crawler import load_sources, sources_path
from parawire.roof.stages import PIPELINE, stage_named
from parawire.roof.tasks import DAILY_TASK, create_app, open_split, task_name
from parawire.stage import Counts, Scope
from parawire.store import store_of


def _wait(result: Any) -> Any:
    return result.get(disable_sync_subtasks=False) if hasattr(result, "get") else result


class Pipeline:
    """The stages of the table, run as Celery tasks for one set of settings."""

    def __init__(self, settings: Settings, app: Celery | None = None) -> None:
        self.settings = settings
        self.app = app or create_app(settings)

    def run(self, name: str, scope: Scope | dict[str, Any] | None = None) -> Counts:
        """Run one stage and wait for its counts (its paths resolved here, where the command
        runs, before any worker sees them); a split stage's parts go out as a chord
        (to workers, or here in eager mode) with a progress bar fed by the store."""
        stage = stage_named(name)
        parsed = stage.scope.parse(scope).for_caller(self.settings)
        if stage.parts is None:
            task = self.app.tasks[task_name(stage)]
            if stage.watch is None:
                return _wait(task.delay(parsed.to_json()))
            watch = stage.watch
            with _Progress(lambda: watch.count(self.settings), None, stage.name, watch.unit):
                return _wait(task.delay(parsed.to_json()))
        opened, outcome = open_split(self.app, self.settings, stage, parsed)
        if not isinstance(outcome, Signature):
            return outcome
        done = stage.parts.done
        with _Progress(lambda: done(self.settings, opened.run_id), opened.total, stage.name,
                       opened.unit):
            return _wait(outcome.apply_async())

    def run_all(self, scopes: dict[str, Scope | dict[str, Any]]) -> dict[str, Counts]:
        """crawl → annotate → index → align → export, each with its scope (export takes the
        alignment's run); returns each stage's counts."""
        report: dict[str, Counts] = {}
        for name in PIPELINE:
            scope = dict(scopes.get(name) or {})
            if name == "export":
                scope.setdefault("run_id", report["align"]["run_id"])
            report[name] = self.run(name, scope)
        return report

    def daily(self, day: date) -> dict[str, Any]:
        """The daily job for `day` (crawl per outlet → annotate → index → align), as tasks;
        returns the crawl runs it made and the alignment's counts."""
        outlets = len(load_sources(sources_path(self.settings)).outlets)
        store = store_of(self.settings)
        before = max((run.id or 0 for run in store.crawl_runs(limit=1)), default=0)
        align = _wait(self.app.tasks[DAILY_TASK].delay(day.isoformat()))
        crawls = [{"run_id": run.id, "outlets": run.parameters.get("outlets"), **run.counts}
                  for run in reversed(store.crawl_runs(limit=outlets)) if (run.id or 0) > before]
        return {"crawl": crawls, "align": align}


def run_stage(settings: Settings, name: str, scope: Scope | dict[str, Any] | None = None,
              **fields: Any) -> Counts:
    """Run one stage for these settings (scope as a model, a dict, or keyword fields)."""
    values = scope.model_dump() if isinstance(scope, Scope) else dict(scope or {})
    return Pipeline(settings).run(name, {**values, **fields})


class _Progress:
    """A progress bar fed by `done()`, polled from a thread, so it moves whether the work
    runs here or on workers (no total: a count and a rate)."""

    def __init__(self, done: Callable[[], int], total: int | None, desc: str, unit: str) -> None:
        self.done = done
        self.start = done()
        self.bar = tqdm(total=total, desc=desc, unit=unit, disable=None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _update(self) -> None:
        finished = self.done() - self.start
        if self.bar.total is not None:
            finished = min(finished, self.bar.total)
        self.bar.update(max(0, finished - self.bar.n))

    def _poll(self) -> None:
        while not self.stop.wait(0.5):
            self._update()

    def __enter__(self) -> _Progress:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self._update()
        self.bar.close()
