"""The pair model's commands: train it on graded, binary or review labels, and evaluate it."""

from __future__ import annotations

from pathlib import Path

import click

from parawire.errors import ParawireError
from parawire.roof.cli_context import echo_json, settings_of


@click.group()
def scorer() -> None:
    """The pair model that grades each candidate pair."""


@scorer.command("train")
@click.option("--gold", type=click.Path(file_okay=False, path_type=Path),
              help="The graded dev gold folder (pairs-dev layout); its tune part is read.")
@click.option("--labels", type=click.Path(dir_okay=False, path_type=Path),
              help="Tab-separated binary labelled pairs (MSRP's layout): 1 read as grade 4, "
                   "0 as grade 2.")
@click.option("--reviews/--no-reviews", default=False,
              help="Add the operator's review labels of graded pairs.")
@click.option("--run", "run_id", type=int, help="Only the review labels of this run.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Model file to write [default: DATA_DIR/pair_model.json].")
@click.option("--lang", "language", default="en", show_default=True,
              help="Language of the labelled texts.")
@click.pass_context
def train_scorer(ctx: click.Context, gold: Path | None, labels: Path | None, reviews: bool,
                 run_id: int | None, out: Path | None, language: str) -> None:
    """Fit the pair model that grades candidates; point align.pair_model at the file to use
    it."""
    from parawire.roof.scorer_training import train_scorer as train

    settings = settings_of(ctx)
    echo_json(train(settings, gold=gold, labels=labels, reviews=reviews, run_id=run_id,
                    out=out or settings.data_dir / "pair_model.json", language=language))


@scorer.command("evaluate")
@click.option("--gold", type=click.Path(file_okay=False, path_type=Path),
              help="The graded dev gold folder (pairs-dev layout).")
@click.option("--part", type=click.Choice(["tune", "check"]), default="check",
              show_default=True, help="Which part of the dev gold to read.")
@click.option("--labels", type=click.Path(dir_okay=False, path_type=Path),
              help="Tab-separated binary labelled pairs (MSRP's layout).")
@click.option("--model", "model_path", default=None,
              help="Pair model file [default: align.pair_model, else the shipped one].")
@click.option("--lang", "language", default="en", show_default=True,
              help="Language of the labelled texts.")
@click.pass_context
def evaluate_scorer(ctx: click.Context, gold: Path | None, part: str, labels: Path | None,
                    model_path: str | None, language: str) -> None:
    """Precision and recall of the pair model on graded or binary labelled pairs."""
    from parawire.roof.scorer_evaluation import evaluate_scorer as evaluate

    if gold is None and labels is None:
        raise ParawireError("nothing to evaluate the pair model on: give --gold DIR or "
                            "--labels FILE")
    settings = settings_of(ctx)
    model = settings.align.pair_model if model_path is None else model_path
    echo_json(evaluate(settings, model_path=model, gold=gold, part=part, labels=labels,
                       language=language))
