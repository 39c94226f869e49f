"""The generator commands: evaluate a checkpoint, paraphrase sentences, augment a labelled
dataset, and set generators against each other."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from parawire.config import Settings
from parawire.roof.cli_context import echo_json, settings_of


def _decode_options(settings: Settings, beam: int | None) -> Any:
    from parawire.trainer import DecodeOptions

    return DecodeOptions.from_config(settings.train, beam)


_checkpoint = click.option("--checkpoint", required=True, type=click.Path(dir_okay=False),
                           help="A checkpoint written by `parawire train` (best.pt or last.pt).")
_beam = click.option("--beam", type=click.IntRange(min=1), help="Beam width; 1: greedy "
                     "[default: train.beam].")
_device = click.option("--device", help="auto, cpu, cuda or cuda:N [default: train.device].")


@click.command()
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
    from parawire.trainer import evaluate as evaluate_run

    settings = settings_of(ctx)
    echo_json(evaluate_run(Path(checkpoint), split, Path(corpus) if corpus else None,
                           _decode_options(settings, beam), limit,
                           Path(predictions) if predictions else None,
                           device or settings.train.device, settings.train.threads))


def _with_beam(settings: Settings, beam: int | None) -> Settings:
    if beam is None:
        return settings
    return settings.model_copy(update={"train": settings.train.model_copy(update={"beam": beam})})


_backward = click.option("--backward", type=click.Path(dir_okay=False),
                         help="A backward checkpoint (`parawire train --direction backward`): "
                              "sample-cluster's dual score, and backward NLL in evaluations.")
_count = click.option("-n", "count", type=click.IntRange(min=1),
                      help="Outputs per input [default: generate.n].")
_seed = click.option("--seed", type=int, help="Random seed [default: generate.seed].")
_annotate = click.option("--annotate/--no-annotate", default=True, show_default=True,
                         help="Find names with the nlp annotator (generators keep and case them); "
                              "off: capitalised words after the first count as names.")


@click.command()
@_checkpoint
@click.argument("sentences", nargs=-1)
@click.option("--generator", "name", help="beam | sample-cluster | dips | overgen | rank "
              "[default: generate.generator].")
@_count
@_backward
@_seed
@_beam
@_annotate
@_device
@click.pass_context
def paraphrase(ctx: click.Context, checkpoint: str, sentences: tuple[str, ...], name: str | None,
               count: int | None, backward: str | None, seed: int | None, beam: int | None,
               annotate: bool, device: str | None) -> None:
    """Paraphrase the SENTENCES, or each line of standard input when none is given: one JSON
    line per input with its outputs, their origins and scores."""
    from parawire.roof.generate import generators_of, sources_of
    from parawire.trainer import as_jsonl_record

    settings = _with_beam(settings_of(ctx), beam)
    cfg = settings.generate
    lines = list(sentences) or [line.strip() for line in sys.stdin if line.strip()]
    (generator,), _ = generators_of(settings, [name or cfg.generator], Path(checkpoint),
                                    Path(backward) if backward else None, device)
    sources = sources_of(settings, lines, annotate)
    outputs = generator.generate_batch(sources, count or cfg.n, cfg.seed if seed is None else seed)
    for source, candidates in zip(sources, outputs, strict=True):
        click.echo(json.dumps(as_jsonl_record(source, candidates), ensure_ascii=False))


@click.command()
@_checkpoint
@click.option("--input", "input_path", required=True, type=click.Path(dir_okay=False, exists=True),
              help="A JSONL file of labelled rows.")
@click.option("--text-field", required=True, help="The field to paraphrase (others are kept).")
@click.option("--output", type=click.Path(dir_okay=False), help="Write here [default: stdout].")
@click.option("--generator", "name", help="A generator name [default: generate.generator].")
@_count
@_backward
@_seed
@_annotate
@_device
@click.pass_context
def augment(ctx: click.Context, checkpoint: str, input_path: str, text_field: str,
            output: str | None, name: str | None, count: int | None, backward: str | None,
            seed: int | None, annotate: bool, device: str | None) -> None:
    """Add paraphrases of each row's text field to a labelled JSONL dataset: every row, then
    one copy per paraphrase (other fields kept, with augmented_from and origin)."""
    from parawire.roof.generate import generators_of, sources_of
    from parawire.trainer import augmented, read_rows

    settings = settings_of(ctx)
    cfg = settings.generate
    rows = read_rows(Path(input_path), text_field)
    (generator,), _ = generators_of(settings, [name or cfg.generator], Path(checkpoint),
                                    Path(backward) if backward else None, device)
    sources = sources_of(settings, [row[text_field] for row in rows], annotate)
    outputs = generator.generate_batch(sources, count or cfg.n, cfg.seed if seed is None else seed)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n"
                   for row in augmented(rows, text_field, outputs))
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@click.command("evaluate-generators")
@_checkpoint
@_backward
@click.option("--generators", "names", default="beam,sample-cluster", show_default=True,
              help="Comma-separated generator names.")
@click.option("--split", type=click.Choice(["train", "valid", "test"]), default="test",
              show_default=True)
@click.option("--corpus", type=click.Path(file_okay=False, exists=True),
              help="Corpus folder [default: the one the checkpoint was trained on].")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pairs of the split.")
@_count
@_seed
@_annotate
@_device
@click.pass_context
def evaluate_generators(ctx: click.Context, checkpoint: str, backward: str | None, names: str,
                        split: str, corpus: str | None, limit: int | None, count: int | None,
                        seed: int | None, annotate: bool, device: str | None) -> None:
    """Diversity and fidelity of each generator on a split: vs the input, among the outputs,
    vs the reference, per output rank, seconds per input (JSON)."""
    from functools import partial

    from parawire.roof.generate import generators_of, judges_of, sources_of
    from parawire.trainer import evaluate_generators as evaluate_all
    from parawire.trainer import read_examples

    settings = settings_of(ctx)
    cfg = settings.generate
    generators, models = generators_of(settings, [n.strip() for n in names.split(",") if n.strip()],
                                       Path(checkpoint), Path(backward) if backward else None, device)
    examples = read_examples(Path(corpus) if corpus else models.forward.corpus, split, limit,
                             partial(sources_of, settings, annotate=annotate))
    n = count or cfg.n
    echo_json({"split": split, "n": n, "generators": evaluate_all(
        generators, examples, n, cfg.seed if seed is None else seed, judges_of(models))})


GENERATOR_COMMANDS = (evaluate, paraphrase, augment, evaluate_generators)
