"""The Celery app, derived from the stage table: one task per stage, plus a part and a
close task per split stage, and the daily workflow. Eager in process unless the settings
name a broker. Every app is built for the settings it is given (`create_app`); a worker
process builds its own in `parawire.roof.celery_app`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from celery import Celery, Signature, chain, chord
from celery.result import allow_join_result
from celery.schedules import crontab

from parawire.aligner import AlignScope
from parawire.config import Settings
from parawire.crawler import CRAWL, CrawlScope, load_sources, sources_path
from parawire.errors import NoOutletReached, OutletsFailed
from parawire.roof.stages import STAGES
from parawire.stage import Counts, Opened, Scope, Stage

DAILY_TASK = "parawire.daily"
# The daily job's steps after its crawls: judge them, and end the job once aligned.
CRAWLED_TASK, DONE_TASK = "parawire.daily.crawled", "parawire.daily.done"


def task_name(stage: Stage, step: str = "") -> str:
    """The Celery name of a stage's task (`step`: "part" or "close" of a split stage)."""
    return f"parawire.{stage.name}" + (f".{step}" if step else "")


def create_app(settings: Settings) -> Celery:
    """A Celery app whose tasks run the stages with these settings."""
    broker = settings.broker.url
    app = Celery("parawire")
    timeout = {"visibility_timeout": settings.broker.visibility_timeout}
    app.conf.update(
        broker_url=broker or "memory://localhost/",  # eager: no broker is ever reached
        result_backend=settings.broker.result_backend or broker or None,
        task_always_eager=not broker,
        task_eager_propagates=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        broker_transport_options=timeout,
        result_backend_transport_options=timeout,
        timezone="UTC",
        enable_utc=True,
        beat_schedule=beat_schedule(settings),
    )
    for stage in STAGES:
        _register(app, settings, stage)
    _register_daily(app, settings)
    return app


def beat_schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """Celery beat's schedule: the daily crawl at crawl.daily_hour:daily_minute UTC."""
    return {"daily-crawl": {"task": DAILY_TASK, "schedule": crontab(
        hour=settings.crawl.daily_hour, minute=settings.crawl.daily_minute)}}


def _register(app: Celery, settings: Settings, stage: Stage) -> None:
    """The stage's task (and a split stage's part and close tasks) on the app."""
    if stage.parts is None:
        work = stage.work
        assert work is not None

        @app.task(name=task_name(stage), shared=False)
        def run(scope: dict[str, Any]) -> Counts:
            return work(settings, stage.scope.parse(scope))
        return
    parts = stage.parts

    @app.task(name=task_name(stage), bind=True, shared=False)
    def run_split(self: Any, scope: dict[str, Any]) -> Any:
        _opened, outcome = open_split(app, settings, stage, stage.scope.parse(scope))
        return _replace(self, outcome) if isinstance(outcome, Signature) else outcome

    @app.task(name=task_name(stage, "part"), shared=False)
    def part(run_id: int, payload: Any) -> Counts:
        with parts.stopping(settings, run_id):  # a failure on a worker is recorded on the run
            return parts.part(settings, run_id, payload)

    @app.task(name=task_name(stage, "close"), shared=False)
    def close(counts: list[Counts], run_id: int) -> Counts:
        return parts.close(settings, run_id, counts)


def open_split(app: Celery, settings: Settings, stage: Stage,
               scope: Scope) -> tuple[Opened, Signature | Counts]:
    """Open a split stage's run; then either its counts, when no part is left to do, or the
    chord of its part tasks closed by its close task."""
    assert stage.parts is not None
    opened = stage.parts.open(settings, scope)
    if not opened.parts:
        return opened, stage.parts.close(settings, opened.run_id, [])
    part, close = app.tasks[task_name(stage, "part")], app.tasks[task_name(stage, "close")]
    header = [part.s(opened.run_id, payload) for payload in opened.parts]
    return opened, chord(header, close.s(opened.run_id), app=app)


def _replace(task: Any, workflow: Signature) -> Any:
    """Replace a task by a workflow. On a worker the workflow is sent and the task ends;
    in eager mode it runs here, and its chords may wait on their own header's results."""
    with allow_join_result():
        return task.replace(workflow)


def daily_workflow(app: Celery, settings: Settings, day: date) -> Signature:
    """The daily crawl of `day` and the day before: one crawl task per outlet of the
    sources file, then (`after_crawls`) annotate → index → stories → align for those dates."""
    path = sources_path(settings)
    since, until = day - timedelta(days=1), day
    crawls = [app.tasks["parawire.crawl"].si(CrawlScope(
        since=since, until=until, sources=str(path), outlets=[outlet.name]).to_json())
        for outlet in load_sources(path).outlets]
    return chord(crawls, app.tasks[CRAWLED_TASK].s(since.isoformat(), until.isoformat()),
                 app=app)


def after_crawls(app: Celery, since: str, until: str, failures: str | None) -> Signature:
    """What the daily job does once its crawls reached outlets: annotate → index → stories →
    align of the window, then its end, which fails the job with `failures` (outlets that
    failed)."""
    scope = AlignScope(since=date.fromisoformat(since), until=date.fromisoformat(until))
    return chain(app.tasks["parawire.annotate"].si({}), app.tasks["parawire.index"].si({}),
                 app.tasks["parawire.stories"].si({}), app.tasks["parawire.align"].si(scope.to_json()),
                 app.tasks[DONE_TASK].s(failures), app=app)


def _register_daily(app: Celery, settings: Settings) -> None:
    @app.task(name=DAILY_TASK, bind=True, shared=False)
    def daily(self: Any, day: str | None = None) -> Any:
        """Celery beat's daily crawl (of yesterday and today, UTC, unless `day` is given)."""
        when = date.fromisoformat(day) if day else datetime.now(UTC).date()
        return _replace(self, daily_workflow(app, settings, when))

    @app.task(name=CRAWLED_TASK, bind=True, shared=False)
    def crawled(self: Any, crawls: list[Counts], since: str, until: str) -> Any:
        """The daily job fails here when its crawls reached no outlet (nothing new to work
        on); otherwise it goes on, to fail at its end when some outlets failed."""
        assert CRAWL.verdict is not None
        failure = CRAWL.verdict(crawls)
        if isinstance(failure, NoOutletReached):
            raise failure
        return _replace(self, after_crawls(app, since, until, str(failure) if failure else None))

    @app.task(name=DONE_TASK, shared=False)
    def done(aligned: Counts, failures: str | None) -> Counts:
        """The daily job's result: the alignment's counts, or a failure naming the outlets
        that failed (the work was done without them; the next run is scheduled as ever)."""
        if failures:
            raise OutletsFailed(failures)
        return aligned
