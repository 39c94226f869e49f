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
    from parawire.roof import pipeline

    if topics and all_topics:
        raise ParawireError("--topic and --all-topics exclude each other")
    first, last = _window(since, until)
    scope = {"outlets": list(outlets), "topics": list(topics), "all_topics": all_topics}
    _echo(pipeline.crawl(_settings(ctx), first, last, sources, scope))


@main.command()
@click.pass_context
def annotate(ctx: click.Context) -> None:
    """Split new articles into annotated sentences."""
    from parawire.roof import pipeline

    _echo(pipeline.annotate(_settings(ctx)))


@main.group(invoke_without_command=True)
@click.pass_context
def index(ctx: click.Context) -> None:
    """Index the sentences the index does not hold yet."""
    if ctx.invoked_subcommand is None:
        from parawire.roof import pipeline

        _echo(pipeline.index(_settings(ctx)))


@index.command()
@click.pass_context
def rebuild(ctx: click.Context) -> None:
    """Re-create the index from the store."""
    from parawire.roof import pipeline

    _echo(pipeline.index(_settings(ctx), rebuild=True))


@index.command()
@click.pass_context
def stats(ctx: click.Context) -> None:
    """Sentences in the index by language, topic, outlet and day."""
    from dataclasses import asdict

    from parawire.indexer import open_index

    settings = _settings(ctx)
    _echo({"backend": settings.index.backend, **asdict(open_index(settings).stats())})


def _align_params(settings: Settings, since: datetime | None, until: datetime | None,
                  lang: str | None, topic: str | None) -> Any:
    from parawire.aligner import AlignParams

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
    from parawire.roof import pipeline

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
    from parawire.aligner import DatasetOptions
    from parawire.roof import pipeline

    options = DatasetOptions(one_target_per_input=one_target_per_input, flipped=flipped,
                             seed=seed, language=lang)
    _echo(pipeline.export(_settings(ctx), run_id, Path(out) if out else None, fmt, options))


def _decode_options(settings: Settings, beam: int | None) -> Any:
    from parawire.trainer.decoding import DecodeOptions

    return DecodeOptions(beam=beam or settings.train.beam,
                         length_penalty=settings.train.length_penalty,
                         max_len=settings.train.max_len)


_checkpoint = click.option("--checkpoint", required=True, type=click.Path(dir_okay=False),
                           help="A checkpoint written by `parawire train` (best.pt or last.pt).")
_beam = click.option("--beam", type=click.IntRange(min=1), help="Beam width; 1: greedy "
                     "[default: train.beam].")
_device = click.option("--device", help="auto, cpu, cuda or cuda:N [default: train.device].")


@main.command()
@click.option("--model", "kind", type=click.Choice(["pointer", "seq2seq", "autoencoder"]),
              default="pointer", show_default=True,
              help="autoencoder: pre-training without attention or copying, for --init-from.")
@click.option("--corpus", required=True, type=click.Path(file_okay=False, exists=True),
              help="A folder written by `parawire export --format jsonl`.")
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Run folder: checkpoints and metrics; an unfinished run there is resumed.")
@click.option("--init-from", type=click.Path(dir_okay=False, exists=True),
              help="Start from this checkpoint's weights and vocabulary (a pre-trained autoencoder).")
@click.option("--coverage/--no-coverage", default=None, help="Coverage loss [default: train.coverage].")
@click.option("--epochs", "max_epochs", type=click.IntRange(min=1), help="Most epochs.")
@click.option("--patience", type=click.IntRange(min=1), help="Early-stopping patience, in epochs.")
@click.option("--batch-size", type=click.IntRange(min=1))
@click.option("--vocab-size", type=click.IntRange(min=5))
@click.option("--embedding", type=click.IntRange(min=1))
@click.option("--hidden", type=click.IntRange(min=1))
@click.option("--lr", type=click.FloatRange(min=0, min_open=True))
@click.option("--seed", type=int)
@_device
@click.option("--threads", type=click.IntRange(min=0), help="CPU threads (0: torch's default).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Progress bar.")
@click.pass_context
def train(ctx: click.Context, kind: str, corpus: str, out: str, init_from: str | None,
          progress: bool, **overrides: Any) -> None:
    """Train a paraphrase generator on an exported corpus (settings: [train] in the config)."""
    from parawire.trainer.training import TrainConfig
    from parawire.trainer.training import train as train_run

    defaults = _settings(ctx).train.model_dump(exclude={"beam", "length_penalty"})
    chosen = {key: value for key, value in overrides.items() if value is not None}
    config = TrainConfig(kind=kind, **{**defaults, **chosen})
    _echo(train_run(Path(corpus), Path(out), config, Path(init_from) if init_from else None,
                    progress_bar=progress))


@main.command()
@_checkpoint
@click.option("--split", type=click.Choice(["train", "valid", "test"]), default="test",
              show_default=True)
@click.option("--corpus", type=click.Path(file_okay=False, exists=True),
              help="Corpus folder [default: the one the checkpoint was trained on].")
@_beam
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pairs of the split.")
@click.option("--predictions", type=click.Path(dir_okay=False),
              help="Also write input, target and output of each pair here (JSONL).")
@_device
@click.pass_context
def evaluate(ctx: click.Context, checkpoint: str, split: str, corpus: str | None, beam: int | None,
             limit: int | None, predictions: str | None, device: str | None) -> None:
    """ROUGE-1/2/L F1 and BLEU of a checkpoint's paraphrases of a split."""
    from parawire.trainer.evaluation import evaluate as evaluate_run

    settings = _settings(ctx)
    _echo(evaluate_run(Path(checkpoint), split, Path(corpus) if corpus else None,
                       _decode_options(settings, beam), limit,
                       Path(predictions) if predictions else None,
                       device or settings.train.device, settings.train.threads))


@main.command()
@_checkpoint
@click.argument("sentences", nargs=-1)
@_beam
@_device
@click.pass_context
def paraphrase(ctx: click.Context, checkpoint: str, sentences: tuple[str, ...], beam: int | None,
               device: str | None) -> None:
    """Paraphrase the SENTENCES, or each line of standard input when none is given."""
    from parawire.trainer.inference import Paraphraser

    settings = _settings(ctx)
    lines = list(sentences) or [line.strip() for line in sys.stdin if line.strip()]
    paraphraser = Paraphraser(Path(checkpoint), device or settings.train.device,
                              settings.train.threads)
    for output in paraphraser.paraphrase(lines, _decode_options(settings, beam)):
        click.echo(output)


@main.command(name="pipeline")
@_since
@_until
@click.option("--sources", type=click.Path(dir_okay=False), help="Sources file (TOML).")
@click.pass_context
def run_pipeline(ctx: click.Context, since: datetime | None, until: datetime | None,
                 sources: str | None) -> None:
    """crawl → annotate → index → align → export for a date window."""
    from parawire.roof import pipeline

    settings = _settings(ctx)
    first, last = _window(since, until)
    params = _align_params(settings, None, None, None, None)
    _echo(pipeline.run_all(settings, first, last, params, sources))


@main.command()
@click.pass_context
def demo(ctx: click.Context) -> None:
    """Serve the bundled demo site on 127.0.0.1 and run the whole pipeline on it."""
    from parawire.roof.demo_run import run_demo

    click.echo(run_demo(_settings(ctx)))


@main.command()
@click.pass_context
def status(ctx: click.Context) -> None:
    """Counts in the store and the index, and the latest runs."""
    from parawire.roof.status import status_report

    click.echo(status_report(_settings(ctx)))


@main.command()
@click.option("--host", help="Address to bind (default: serve.host, 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), help="Port (default: serve.port).")
@click.pass_context
def serve(ctx: click.Context, host: str | None, port: int | None) -> None:
    """Serve the operator dashboard and its API (reads open, writes need serve.token)."""
    import secrets

    import uvicorn

    from parawire.dashboard import create_app

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
    from parawire.roof import pipeline

    _echo(pipeline.daily(_settings(ctx), day.date() if day else _today()))


def _exec_celery(settings: Settings, command: str, celery_args: tuple[str, ...]) -> None:
    if not settings.broker.url:
        raise ParawireError("broker.url is empty: set it (e.g. redis://127.0.0.1:6379/0)")
    if settings.config_file:
        os.environ["PARAWIRE_CONFIG"] = settings.config_file
    argv = [sys.executable, "-m", "celery", "-A", "parawire.roof.tasks", command, *celery_args]
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
