"""The `parawire` command line: one sub-command per stage, plus demo, pipeline and status.

Every command takes `--config`, `--log-level` and `--log-format` (before or after its name),
`-h`; a bad input is one line on stderr and exit code 1, Ctrl-C exit code 130; a crawl
(`crawl`, `pipeline`, `daily`) that reached no outlet exits 3, one where some outlets
failed 4, after its report."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import click
from sqlalchemy.exc import DBAPIError

from parawire.config import Settings
from parawire.errors import ParawireError, Terminated
from parawire.roof.cli_context import echo_json, settings_of
from parawire.roof.generator_cli import GENERATOR_COMMANDS
from parawire.roof.logs import FORMATS, LEVELS, configure_logging
from parawire.roof.scope_options import scope_options, scope_values
from parawire.roof.scorer_cli import scorer
from parawire.roof.stages import PIPELINE, STAGES, stage_named
from parawire.stage import Stage, describe

log = logging.getLogger("parawire")
_LEVEL, _FORMAT = "parawire.log_level", "parawire.log_format"


class _Cli(click.Group):
    """Turns ParawireError, and an error of the disk or the store (full, gone), into one
    line on stderr and exit code 1 (or the error's own `exit_code`); Ctrl-C (or SIGTERM)
    into exit 130, also when the clean-up it set off failed in turn (a transaction cut in
    the middle that cannot roll back)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as exc:
            if _set_off_by_interrupt(exc):
                _interrupted(ctx)
            if not isinstance(exc, ParawireError | OSError | DBAPIError):
                raise
            click.echo(f"parawire: error: {exc if isinstance(exc, ParawireError) else describe(exc)}",
                       err=True)
            ctx.exit(getattr(exc, "exit_code", 1))


def _interrupted(ctx: click.Context) -> None:
    click.echo("parawire: interrupted", err=True)
    ctx.exit(130)


def _set_off_by_interrupt(exc: BaseException) -> bool:
    """Whether the error was raised while a Ctrl-C (or SIGTERM) was being handled."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Keep a common option's value for the whole command line (the last one given wins),
    and apply the logging options at once."""
    if value is not None:
        meta = ctx.find_root().meta
        meta[f"parawire.{param.name}"] = value
        if param.name != "config_file":
            configure_logging(meta.get(_LEVEL, "warning"), meta.get(_FORMAT, "text"))
    return value


def _common_options() -> list[click.Option]:
    """The options every command takes, before or after its name."""
    return [
        click.Option(["--config", "config_file"], type=click.Path(dir_okay=False),
                     expose_value=False, callback=_remember,
                     help="User config file (TOML) over the shipped defaults."),
        click.Option(["--log-level"], type=click.Choice(LEVELS), expose_value=False,
                     callback=_remember, help="Log records from this level up, on stderr "
                     "[default: warning]."),
        click.Option(["--log-format"], type=click.Choice(FORMATS), expose_value=False,
                     callback=_remember, help="Log lines as text or one JSON object each "
                     "[default: text]."),
    ]


def _today() -> date:
    return datetime.now(UTC).date()


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="parawire", prog_name="parawire")
def main() -> None:
    """parawire: paraphrase corpora mined from the news."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, _frame: object) -> None:
    """SIGTERM stops a command as Ctrl-C does, so its run is recorded as interrupted."""
    raise Terminated(signal.Signals(signum).name)


def _stage_command(stage: Stage, cls: type[click.Command] = click.Command) -> click.Command:
    """A command that runs `stage` through the pipeline, with its scope's options."""

    def callback(**given: Any) -> None:
        ctx = click.get_current_context()
        if isinstance(ctx.command, click.Group) and ctx.invoked_subcommand:
            return
        from parawire.roof.pipeline import Pipeline

        scope = scope_values(stage.scope, given)
        log.info("%s: starting with %s", stage.name, scope)
        counts = Pipeline(settings_of(ctx)).run(stage.name, scope)
        log.info("%s: done: %s", stage.name, counts)
        echo_json(counts)
        failure = stage.verdict([counts]) if stage.verdict is not None else None
        if failure is not None:
            raise failure

    extra = {"invoke_without_command": True} if issubclass(cls, click.Group) else {}
    return cls(stage.name, callback=callback, params=list(scope_options(stage.scope)),
               help=stage.summary, **extra)


for _stage in STAGES:
    if _stage.name != "index":
        main.add_command(_stage_command(_stage))
index = _stage_command(stage_named("index"), click.Group)
main.add_command(index)


@index.command()
@click.pass_context
def rebuild(ctx: click.Context) -> None:
    """Re-create the index from the store."""
    from parawire.roof.pipeline import run_stage

    echo_json(run_stage(settings_of(ctx), "index", rebuild=True))


@index.command()
@click.pass_context
def stats(ctx: click.Context) -> None:
    """Sentences in the index by language, topic, outlet and day."""
    from dataclasses import asdict

    from parawire.indexer import open_index

    settings = settings_of(ctx)
    echo_json({"backend": settings.index.backend, **asdict(open_index(settings).stats())})


@click.pass_context
def _run_pipeline(ctx: click.Context, **given: Any) -> None:
    from parawire.roof.pipeline import Pipeline

    crawl = scope_values(stage_named("crawl").scope, given)
    report = Pipeline(settings_of(ctx)).run_all({"crawl": crawl})
    echo_json(report)
    _outlets_failed([report["crawl"]])


def _outlets_failed(crawls: list[dict[str, Any]]) -> None:
    """End the command with the crawl's verdict when outlets failed (exit 3 or 4)."""
    from parawire.roof.pipeline import outlet_verdict

    failure = outlet_verdict(crawls)
    if failure is not None:
        raise failure


for _command in (*GENERATOR_COMMANDS, scorer):
    main.add_command(_command)
main.add_command(click.Command(
    "pipeline", callback=_run_pipeline, params=scope_options(stage_named("crawl").scope),
    help=f"{' → '.join(PIPELINE)}, the crawl scoped by these options."))


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Serve the bundled demo site on 127.0.0.1 and run the whole pipeline on it."""
    from parawire.roof.demo_run import run_demo

    click.echo(run_demo(settings_of(ctx)))


@main.command("demo-site")
@click.option("--sources", "sources_file", type=click.Path(dir_okay=False), required=True,
              help="Write a sources file for the served outlets here.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: a free one).")
def demo_site(sources_file: str, port: int) -> None:
    """Serve the bundled demo site on 127.0.0.1 until stopped, with a sources file for it,
    to run the stages on it one by one."""
    from parawire.roof.demo_run import serve_demo_site

    serve_demo_site(Path(sources_file), port)


@main.command()
@click.pass_context
def status(ctx: click.Context) -> None:
    """Counts in the store and the index, and the latest runs."""
    from parawire.roof.status import status_report

    click.echo(status_report(settings_of(ctx)))


@main.group()
def store() -> None:
    """The store: checks."""


@store.command()
@click.pass_context
def check(ctx: click.Context) -> None:
    """Check the whole store for damage (SQLite: integrity_check, reading every page)."""
    from parawire.store import Store

    settings = settings_of(ctx)
    for line in Store(settings.store_url).check():
        click.echo(line)


@main.command()
@click.option("--host", help="Address to bind (default: serve.host, 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), help="Port (default: serve.port).")
@click.pass_context
def serve(ctx: click.Context, host: str | None, port: int | None) -> None:
    """Serve the operator dashboard and its API (reads open, writes need serve.token), in
    serve.workers processes."""
    import secrets

    from parawire.dashboard import serve as serve_dashboard

    settings = settings_of(ctx)
    token = settings.serve.token
    if not token:
        token = secrets.token_urlsafe(24)
        click.echo(f"serve.token is not set; write token for this session: {token}", err=True)
    serve_dashboard(settings, token, host or settings.serve.host, port or settings.serve.port)


@main.command()
@click.option("--day", type=click.DateTime(["%Y-%m-%d"]),
              help="Crawl this day and the day before (default: today, UTC).")
@click.pass_context
def daily(ctx: click.Context, day: datetime | None) -> None:
    """Run the daily job once: crawl each outlet, then annotate, index and align those days."""
    from parawire.roof.pipeline import Pipeline

    report = Pipeline(settings_of(ctx)).daily(day.date() if day else _today())
    echo_json(report)
    _outlets_failed(report["crawl"])


def _exec_celery(settings: Settings, command: str, celery_args: tuple[str, ...]) -> None:
    if not settings.broker.url:
        raise ParawireError("broker.url is empty: set it (e.g. redis://127.0.0.1:6379/0)")
    if settings.config_file:
        os.environ["PARAWIRE_CONFIG"] = settings.config_file
    argv = [sys.executable, "-m", "celery", "-A", "parawire.roof.celery_app", command, *celery_args]
    os.execv(sys.executable, argv)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def worker(ctx: click.Context, celery_args: tuple[str, ...]) -> None:
    """Start a Celery worker for the configured broker (extra arguments go to celery)."""
    _exec_celery(settings_of(ctx), "worker", celery_args)


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def beat(ctx: click.Context, celery_args: tuple[str, ...]) -> None:
    """Start Celery beat: the daily job at crawl.daily_hour:daily_minute UTC, run by workers
    (extra arguments go to celery, e.g. --schedule FILE)."""
    _exec_celery(settings_of(ctx), "beat", celery_args)


@main.group("config")
def config_group() -> None:
    """The configuration parawire runs with."""


@config_group.command("show")
@click.pass_context
def config_show(ctx: click.Context) -> None:
    """Print the effective configuration (defaults < config file < PARAWIRE_* variables) as
    TOML, secrets hidden."""
    from parawire.roof.config_show import effective_toml

    click.echo(effective_toml(settings_of(ctx)), nl=False)




@main.group("nlp")
def nlp_group() -> None:
    """NLP pipelines for new languages, trained here from Universal Dependencies treebanks."""


@nlp_group.command("train-pipeline")
@click.option("--lang", "language", required=True, help="ISO 639-1 code, e.g. it.")
@click.option("--train", "train_files", required=True, multiple=True,
              type=click.Path(dir_okay=False, exists=True), help="CoNLL-U file to train on "
              "(repeat for more).")
@click.option("--dev", "dev_file", type=click.Path(dir_okay=False, exists=True),
              help="CoNLL-U file that picks the best model [default: a part held out of "
              "--train, nlp.training.dev_fraction].")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder of the pipeline (set nlp.models.<lang> to it).")
@click.option("--max-minutes", type=click.FloatRange(min=0),
              help="Time budget; 0: none [default: nlp.training.max_minutes].")
@click.pass_context
def train_pipeline_command(ctx: click.Context, language: str, train_files: tuple[str, ...],
                           dev_file: str | None, out: str, max_minutes: float | None) -> None:
    """Train a spaCy pipeline (tokens, UPOS, lemmas, dependencies, sentences) on the CPU."""
    from parawire.nlp import train_pipeline

    settings = settings_of(ctx)
    trained = train_pipeline(language, [Path(f) for f in train_files],
                             Path(dev_file) if dev_file else None, Path(out),
                             settings.nlp.training, max_minutes)
    echo_json({"pipeline": str(trained.path), "language": trained.language,
               "train_sentences": trained.train_sentences, "dev_sentences": trained.dev_sentences,
               "minutes": round(trained.minutes, 2), "stopped": trained.stopped,
               "dev_scores": trained.dev_scores,
               "sentence_boundaries": trained.sentence_boundaries,
               "use_it": f"set nlp.models.{language} = \"{trained.path}\""})


@nlp_group.command("evaluate-pipeline")
@click.option("--model", required=True, help="Pipeline folder or installed package.")
@click.option("--test", "test_file", required=True, type=click.Path(dir_okay=False, exists=True),
              help="CoNLL-U test file.")
@click.pass_context
def evaluate_pipeline_command(ctx: click.Context, model: str, test_file: str) -> None:
    """UPOS accuracy, lemma accuracy, UAS/LAS and sentence F1 of a pipeline on a treebank
    (kept in a trained pipeline's meta.json for the export's datasheet)."""
    from parawire.nlp import evaluate_pipeline

    settings = settings_of(ctx)
    echo_json(evaluate_pipeline(model, Path(test_file),
                                settings.nlp.training.sentences_per_doc).as_dict())


def _add_common_options(command: click.Command) -> None:
    command.params.extend(_common_options())
    for sub in getattr(command, "commands", {}).values():
        _add_common_options(sub)


_add_common_options(main)
