"""The Celery app: each stage is a task; eager in process unless a broker is configured.

Workers: `celery -A parawire.tasks worker` (settings from PARAWIRE_* and PARAWIRE_CONFIG).
"""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path
from typing import Any

from celery import Celery

from aligner import AlignParams, DatasetOptions, finish_run
from parawire import stages
from parawire.config import Settings, load_settings

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
    )


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


@app.task(name="parawire.export")
def export_task(run_id: int | None = None, out: str | None = None, fmt: str = "jsonl",
                options: dict[str, Any] | None = None) -> dict:
    """Export stage."""
    dataset = DatasetOptions(**options) if options else None
    return stages.export(settings(), run_id, Path(out) if out else None, fmt, dataset)


if _settings is None:
    configure(load_settings())
