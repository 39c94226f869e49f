"""The `parawire` command line: one sub-command per stage, plus demo, pipeline and status."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from parawire.config import Settings, load_settings
from parawire.errors import ParawireError


class _Cli(click.Group):
    """Turns ParawireError into one line on stderr and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ParawireError as exc:
            click.echo(f"parawire: error: {exc}", err=True)
            ctx.exit(1)


def _settings(ctx: click.Context) -> Settings:
    return ctx.find_root().obj


def _today() -> date:
    return datetime.now(UTC).date()


def _echo(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


@click.group(cls=_Cli)
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="User config file (TOML) over the shipped defaults.")
@click.pass_context
def main(ctx: click.Context, config_file: str | None) -> None:
    """parawire: paraphrase corpora mined from the news."""
    try:
        ctx.obj = load_settings(config_file)
    except ParawireError as exc:
        click.echo(f"parawire: error: {exc}", err=True)
        ctx.exit(1)


_since = click.option("--since", type=click.DateTime(["%Y-%m-%d"]),
                      help="First publication day (default: yesterday).")
_until = click.option("--until", type=click.DateTime(["%Y-%m-%d"]),
                      help="Last publication day (default: today).")


def _window(since: datetime | None, until: datetime | None) -> tuple[date, date]:
    first = since.date() if since else _today() - timedelta(days=1)
    last = until.date() if until else _today()
    if first > last:
        raise ParawireError(f"--since {first} is after --until {last}")
    return first, last


@main.command()
@_since
@_until
@click.option("--sources", type=click.Path(dir_okay=False), help="Sources file (TOML).")
@click.option("--outlet", "outlets", multiple=True, help="Only this outlet (repeatable).")
@click.option("--topic", "topics", multiple=True, help="Only articles on this topic (repeatable).")
@click.option("--all-topics", is_flag=True, help="Keep off-topic articles too (topic 'other').")
@click.pass_context
def crawl(ctx: click.Context, since: datetime | None, until: datetime | None,
          sources: str | None, outlets: tuple[str, ...], topics: tuple[str, ...],
          all_topics: bool) -> None:
    """Crawl the outlets' feeds, sitemaps and section pages for articles in the date window."""
    from parawire import pipeline

    if topics and all_topics:
        raise ParawireError("--topic and --all-topics exclude each other")
    first, last = _window(since, until)
    scope = {"outlets": list(outlets), "topics": list(topics), "all_topics": all_topics}
    _echo(pipeline.crawl(_settings(ctx), first, last, sources, scope))


@main.command()
@click.pass_context
def annotate(ctx: click.Context) -> None:
    """Split new articles into annotated sentences."""
    from parawire import pipeline

    _echo(pipeline.annotate(_settings(ctx)))


@main.group(invoke_without_command=True)
@click.pass_context
def index(ctx: click.Context) -> None:
    """Index the sentences the index does not hold yet."""
    if ctx.invoked_subcommand is None:
        from parawire import pipeline

        _echo(pipeline.index(_settings(ctx)))


@index.command()
@click.pass_context
def rebuild(ctx: click.Context) -> None:
    """Re-create the index from the store."""
    from parawire import pipeline

    _echo(pipeline.index(_settings(ctx), rebuild=True))


@index.command()
@click.pass_context
def stats(ctx: click.Context) -> None:
    """Sentences in the index by language, topic, outlet and day."""
    from dataclasses import asdict

    from indexer import open_index

    settings = _settings(ctx)
    _echo({"backend": settings.index.backend, **asdict(open_index(settings).stats())})


def _align_params(settings: Settings, since: datetime | None, until: datetime | None,
                  lang: str | None, topic: str | None) -> Any:
    from aligner import AlignParams

    return AlignParams.from_config(
        settings.align, language=lang, topic=topic,
        since=since.date() if since else None, until=until.date() if until else None,
    )


@main.command()
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), help="First day of references.")
@click.option("--until", type=click.DateTime(["%Y-%m-%d"]), help="Last day of references.")
@click.option("--lang", help="Only references in this language.")
@click.option("--topic", help="Only references on this topic.")
@click.pass_context
def align(ctx: click.Context, since: datetime | None, until: datetime | None,
          lang: str | None, topic: str | None) -> None:
    """Mine paraphrase pairs with the highly constrained similarity search."""
    from parawire import pipeline

    settings = _settings(ctx)
    _echo(pipeline.align(settings, _align_params(settings, since, until, lang, topic)))


@main.command()
@click.option("--run", "run_id", type=int, help="Alignment run (default: the latest).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "tsv", "parquet"]), default="jsonl",
              show_default=True)
@click.option("--lang", help="Only pairs in this language.")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: "
              "export.dir/run-N).")
@click.option("--seed", type=int, default=13, show_default=True, help="Seed of the split.")
@click.option("--one-target-per-input/--all-targets", default=True, show_default=True)
@click.option("--flipped/--no-flipped", default=True, show_default=True,
              help="Add each pair reversed as well.")
@click.pass_context
def export(ctx: click.Context, run_id: int | None, fmt: str, lang: str | None, out: str | None,
           seed: int, one_target_per_input: bool, flipped: bool) -> None:
    """Write a run's pairs as train/valid/test files with a datasheet."""
    from aligner import DatasetOptions
    from parawire import pipeline

    options = DatasetOptions(one_target_per_input=one_target_per_input, flipped=flipped,
                             seed=seed, language=lang)
    _echo(pipeline.export(_settings(ctx), run_id, Path(out) if out else None, fmt, options))


@main.command(name="pipeline")
@_since
@_until
@click.option("--sources", type=click.Path(dir_okay=False), help="Sources file (TOML).")
@click.pass_context
def run_pipeline(ctx: click.Context, since: datetime | None, until: datetime | None,
                 sources: str | None) -> None:
    """crawl → annotate → index → align → export for a date window."""
    from parawire import pipeline

    settings = _settings(ctx)
    first, last = _window(since, until)
    params = _align_params(settings, None, None, None, None)
    _echo(pipeline.run_all(settings, first, last, params, sources))


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Serve the bundled demo site on 127.0.0.1 and run the whole pipeline on it."""
    from parawire.demo_run import run_demo

    click.echo(run_demo(_settings(ctx)))


@main.command()
@click.pass_context
def status(ctx: click.Context) -> None:
    """Counts in the store and the index, and the latest runs."""
    from parawire.status import status_report

    click.echo(status_report(_settings(ctx)))


@main.command()
@click.option("--host", help="Address to bind (default: serve.host, 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), help="Port (default: serve.port).")
@click.pass_context
def serve(ctx: click.Context, host: str | None, port: int | None) -> None:
    """Serve the operator dashboard and its API (reads open, writes need serve.token)."""
    import secrets

    import uvicorn

    from dashboard import create_app

    settings = _settings(ctx)
    token = settings.serve.token
    if not token:
        token = secrets.token_urlsafe(24)
        click.echo(f"serve.token is not set; write token for this session: {token}", err=True)
    app = create_app(settings, token=token)
    uvicorn.run(app, host=host or settings.serve.host, port=port or settings.serve.port,
                log_level="info")


@main.command()
@click.option("--day", type=click.DateTime(["%Y-%m-%d"]),
              help="Crawl this day and the day before (default: today, UTC).")
@click.pass_context
def daily(ctx: click.Context, day: datetime | None) -> None:
    """Run the daily job once: crawl each outlet, then annotate, index and align those days."""
    from parawire import pipeline

    _echo(pipeline.daily(_settings(ctx), day.date() if day else _today()))


def _exec_celery(settings: Settings, command: str, celery_args: tuple[str, ...]) -> None:
    if not settings.broker.url:
        raise ParawireError("broker.url is empty: set it (e.g. redis://127.0.0.1:6379/0)")
    if settings.config_file:
        os.environ["PARAWIRE_CONFIG"] = settings.config_file
    argv = [sys.executable, "-m", "celery", "-A", "parawire.tasks", command, *celery_args]
    os.execv(sys.executable, argv)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def worker(ctx: click.Context, celery_args: tuple[str, ...]) -> None:
    """Start a Celery worker for the configured broker (extra arguments go to celery)."""
    _exec_celery(_settings(ctx), "worker", celery_args)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def beat(ctx: click.Context, celery_args: tuple[str, ...]) -> None:
    """Start Celery beat: the daily job at crawl.daily_hour:daily_minute UTC, run by workers
    (extra arguments go to celery, e.g. --schedule FILE)."""
    _exec_celery(_settings(ctx), "beat", celery_args)
