"""Runs stages through Celery (eagerly or on workers) and chains them into the pipeline."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

from celery import Celery, Signature
from celery.exceptions import ChordError
from celery.exceptions import TimeoutError as CeleryTimeout
from kombu.exceptions import KombuError
from redis.exceptions import RedisError
from tqdm import tqdm

from parawire.config import Settings
from parawire.crawler import load_sources, run_summary, sources_path
from parawire.errors import NoOutletReached, OutletsFailed, ParawireError
from parawire.roof.stages import PIPELINE, stage_named
from parawire.roof.tasks import DAILY_TASK, create_app, open_split, task_name
from parawire.stage import Counts, Scope, Stage, describe
from parawire.store import store_of

log = logging.getLogger(__name__)
# How often a client waiting for a split run on workers looks at the run's progress.
POLL_SECONDS = 1.0
# Connection attempts before a client says the broker cannot be reached.
BROKER_RETRIES = 3


def _safe(url: str) -> str:
    """A URL without its password."""
    from kombu.utils.url import maybe_sanitize_url

    return str(maybe_sanitize_url(url))


def _connection_error(exc: BaseException | None) -> BaseException | None:
    """The broker connection error behind `exc` (itself, or what it was raised from)."""
    while exc is not None:
        if isinstance(exc, KombuError | RedisError):
            return exc
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return None


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
        self.check_broker()
        with self._broker_errors():
            return self._run(stage, parsed)

    def _run(self, stage: Stage, parsed: Scope) -> Counts:
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
                       opened.unit), stage.parts.stopping(self.settings, opened.run_id), \
                self._broker_errors():
            if self.app.conf.task_always_eager:
                return _wait(outcome.apply_async())
            return self._await_split(stage, parsed, opened.run_id, outcome)

    def check_broker(self) -> None:
        """With workers, make sure the broker and the result backend answer (a few tries,
        then one line naming the URL: down, refusing, or a wrong password)."""
        if self.app.conf.task_always_eager:
            return
        try:
            with self.app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=BROKER_RETRIES, interval_start=0.5,
                                             interval_step=0.5, interval_max=2, timeout=5)
            client = getattr(self.app.backend, "client", None)
            if client is not None and hasattr(client, "ping"):
                client.ping()
        except Exception as exc:
            raise ParawireError(f"cannot reach the broker {_safe(self.settings.broker.url)}: "
                                f"{describe(exc)}") from None

    @contextmanager
    def _broker_errors(self) -> Iterator[None]:
        """The broker or result backend lost while a stage runs on workers: one line (Celery
        may wrap the connection error, e.g. in its result backend's "must be restarted")."""
        try:
            yield
        except Exception as exc:
            lost = _connection_error(exc)
            if self.app.conf.task_always_eager or lost is None:
                raise
            raise ParawireError(f"lost the broker {_safe(self.settings.broker.url)}: "
                                f"{describe(lost)}; the run resumes when the command is run "
                                "again") from None

    def _await_split(self, stage: Stage, scope: Scope, run_id: int, workflow: Signature) -> Counts:
        """Wait for a split run on workers. When no part finishes for broker.stall_timeout
        seconds (a worker died with its tasks), the run's pending parts are sent again (the
        next time after twice as long, until a part finishes: workers that are merely slow
        to start are not flooded with copies), or
        the run is closed here when none is left; after broker.wait_timeout seconds without
        progress the wait ends with one line."""
        assert stage.parts is not None
        broker = self.settings.broker
        result = workflow.apply_async()
        progress, moved = stage.parts.done(self.settings, run_id), time.monotonic()
        sent, stall = moved, broker.stall_timeout
        while True:
            try:
                # follow_parents off: Celery would otherwise fetch every part's state from
                # the result backend each time a part ends (quadratic in the parts: half a
                # core on a 5,000-part alignment). A failed part still fails the chord, and
                # the part records the failure on its run.
                return result.get(timeout=POLL_SECONDS, disable_sync_subtasks=False,
                                  follow_parents=False)
            except CeleryTimeout:
                pass
            except ChordError as exc:  # once every part has ended, one of them failed
                raise ParawireError(f"{stage.name} run {run_id} failed: {exc}") from None
            now, done = time.monotonic(), stage.parts.done(self.settings, run_id)
            if done != progress:
                progress, moved, stall = done, now, broker.stall_timeout
            elif now - moved >= broker.wait_timeout:
                raise ParawireError(
                    f"{stage.name} run {run_id}: no progress for {now - moved:.0f} s "
                    f"(broker.wait_timeout); are workers running for {_safe(broker.url)}? "
                    "Run the command again to resume the run")
            elif now - max(moved, sent) >= stall:
                opened, outcome = open_split(self.app, self.settings, stage, scope)
                if not isinstance(outcome, Signature):
                    return outcome
                log.warning("%s run %d: no progress for %.0f s; sending its %d pending %ss "
                            "again", stage.name, run_id, now - moved, opened.total, opened.unit)
                result, sent, stall = outcome.apply_async(), now, 2 * stall

    def run_all(self, scopes: dict[str, Scope | dict[str, Any]]) -> dict[str, Counts]:
        """crawl → annotate → index → stories → align → export, each with its scope (export
        takes the alignment's run); returns each stage's counts. A crawl that reached no
        outlet ends the pipeline there (`outlet_verdict` of the report tells)."""
        report: dict[str, Counts] = {}
        for name in PIPELINE:
            scope = dict(scopes.get(name) or {})
            if name == "export":
                scope.setdefault("run_id", report["align"]["run_id"])
            report[name] = self.run(name, scope)
            if name == "crawl" and isinstance(outlet_verdict([report[name]]), NoOutletReached):
                break
        return report

    def daily(self, day: date) -> dict[str, Any]:
        """The daily job for `day` (crawl per outlet → annotate → index → stories → align), as
        tasks; returns the crawl runs it made (with how each ended) and the alignment's counts
        (None when the crawls reached no outlet). The job's task fails when outlets failed
        (`outlet_verdict` of the crawl runs tells which way)."""
        outlets = len(load_sources(sources_path(self.settings)).outlets)
        store = store_of(self.settings)
        before = max((run.id or 0 for run in store.crawl_runs(limit=1)), default=0)
        try:
            align = _wait(self.app.tasks[DAILY_TASK].delay(day.isoformat()))
        except NoOutletReached:
            align = None
        except OutletsFailed:  # aligned without the outlets that failed
            latest = store.alignment_runs(limit=1)[0]
            align = {"run_id": latest.id, **latest.counts}
        crawls = [{"run_id": run.id, "outlets": run.parameters.get("outlets"),
                   **run_summary(run), **run.counts}
                  for run in reversed(store.crawl_runs(limit=outlets)) if (run.id or 0) > before]
        return {"crawl": crawls, "align": align}


def outlet_verdict(crawls: list[Counts]) -> ParawireError | None:
    """The error that crawl results make of their outlets' failures (the crawl stage's
    verdict): every outlet failed, some did, or None."""
    verdict = stage_named("crawl").verdict
    return verdict(crawls) if verdict is not None and crawls else None


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
