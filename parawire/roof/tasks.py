"""The Celery app: each stage is a task; eager in process unless a broker is configured.

Workers: `celery -A parawire.tasks worker` (settings from PARAWIRE_* and PARAWIRE_CONFIG);
the daily crawl: `celery -A parawire.tasks beat` (`parawire beat`).
"""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from celery import Celery, Signature, chain, chord
from celery.result import allow_join_result
from celery.schedules import crontab

from parawire.aligner import AlignParams, DatasetOptions, finish_run, start_run
from parawire.config import Settings, load_settings
from parawire.roof import stages

DAILY_TASK = "parawire.daily"

app = Celery("parawire")
_settings: Settings | None = None


def configure(settings: Settings) -> None:
    """Point the app at the settings' broker (or eager mode) and use these settings."""
    global _settings
    _settings = settings
    broker = settings.broker.url
    broker_url = broker or "memory://"
    result_backend = settings.broker.result_backend or broker or None
    if (app.conf.broker_url, app.conf.result_backend) != (broker_url, result_backend):
        _drop_connections()
    app.conf.update(
        broker_url=broker_url,
        result_backend=result_backend,
        task_always_eager=not broker,
        task_eager_propagates=True,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": settings.broker.visibility_timeout},
        result_backend_transport_options={"visibility_timeout": settings.broker.visibility_timeout},
        timezone="UTC",
        enable_utc=True,
        beat_schedule=beat_schedule(settings),
    )


def beat_schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """Celery beat's schedule: the daily crawl at crawl.daily_hour:daily_minute UTC."""
    return {"daily-crawl": {"task": DAILY_TASK, "schedule": crontab(
        hour=settings.crawl.daily_hour, minute=settings.crawl.daily_minute)}}


def _drop_connections() -> None:
    """Forget pooled broker connections and the cached result backend.

    Celery caches both on first use; without this, a process that switches brokers
    (tests, a CLI given a new config) keeps sending to and polling the old one.
    """
    app._after_fork()
    app._backend_cache = None
    app._local = threading.local()


def settings() -> Settings:
    """The settings tasks run with."""
    if _settings is None:
        configure(load_settings())
    assert _settings is not None
    return _settings


@app.task(name="parawire.crawl")
def crawl_task(since: str, until: str, sources: str | None = None,
               scope: dict[str, Any] | None = None) -> dict[str, int]:
    """Crawl stage."""
    return stages.crawl(settings(), date.fromisoformat(since), date.fromisoformat(until), sources,
                        scope)


@app.task(name="parawire.annotate")
def annotate_task() -> dict[str, int]:
    """Annotate stage."""
    return stages.annotate(settings())


@app.task(name="parawire.index")
def index_task(rebuild: bool = False) -> dict[str, int]:
    """Index stage."""
    return stages.index(settings(), rebuild=rebuild)


@app.task(name="parawire.align_batch")
def align_batch_task(run_id: int, params: dict[str, Any], reference_ids: list[int]) -> dict:
    """One batch of an alignment run's references."""
    return stages.align_batch(settings(), run_id, AlignParams.from_json(params), reference_ids)


@app.task(name="parawire.finish_alignment")
def finish_alignment_task(batch_counts: list[dict[str, int]], run_id: int) -> dict[str, int]:
    """Chord callback: closes an alignment run with its counts."""
    return finish_run(stages.store_of(settings()), run_id, batch_counts)


def _replace(task: Any, workflow: Signature) -> Any:
    """Replace a task by a workflow. On a worker the workflow is sent and the task ends;
    in eager mode it runs here, and its chords may wait on their own header's results."""
    with allow_join_result():
        return task.replace(workflow)


def alignment_chord(run_id: int, params: AlignParams, pending: list[int],
                    batch_size: int) -> Signature:
    """The pending references of a run as a chord of batch tasks closed by finish_alignment."""
    header = [align_batch_task.s(run_id, params.to_json(), pending[i:i + batch_size])
              for i in range(0, len(pending), batch_size)]
    return chord(header, finish_alignment_task.s(run_id))


@app.task(name="parawire.align_dates", bind=True)
def align_dates_task(self: Any, since: str, until: str) -> dict[str, int]:
    """Align the references published in [since, until], resuming that window's run."""
    params = AlignParams.from_config(settings().align, since=date.fromisoformat(since),
                                     until=date.fromisoformat(until))
    store = stages.store_of(settings())
    run, pending = start_run(store, params)
    assert run.id is not None
    if not pending:
        return finish_run(store, run.id, [])
    return _replace(self, alignment_chord(run.id, params, pending, settings().align.batch_size))


def daily_workflow(config: Settings, day: date) -> Signature:
    """The daily crawl of `day` and the day before: one crawl task per outlet of the
    sources file, then annotate → index → align for those dates."""
    from parawire.crawler import load_sources, sources_path

    path = sources_path(config)
    since, until = (day - timedelta(days=1)).isoformat(), day.isoformat()
    crawls = [crawl_task.si(since, until, str(path), {"outlets": [outlet.name]})
              for outlet in load_sources(path).outlets]
    return chord(crawls, chain(annotate_task.si(), index_task.si(),
                               align_dates_task.si(since, until)))


@app.task(name=DAILY_TASK, bind=True)
def daily_task(self: Any, day: str | None = None) -> Any:
    """Celery beat's daily crawl (of yesterday and today, UTC, unless `day` is given)."""
    when = date.fromisoformat(day) if day else datetime.now(UTC).date()
    return _replace(self, daily_workflow(settings(), when))


@app.task(name="parawire.export")
def export_task(run_id: int | None = None, out: str | None = None, fmt: str = "jsonl",
                options: dict[str, Any] | None = None) -> dict:
    """Export stage."""
    dataset = DatasetOptions(**options) if options else None
    return stages.export(settings(), run_id, Path(out) if out else None, fmt, dataset)


if _settings is None:
    configure(load_settings())
