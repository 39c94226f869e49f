"""The align and export stages, in the stage contract's shape.

Alignment is a split stage: opening a run selects its references (resuming the run with
the same parameters and scope), each part searches one batch of references, closing the
run totals the counts. Where the parts run is the roof's business."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Literal

from parawire.aligner.dataset import DatasetOptions
from parawire.aligner.export import export_run
from parawire.aligner.params import AlignParams
from parawire.aligner.run import align_batch, finish_run, start_run
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import open_index
from parawire.nlp import pipeline_description
from parawire.stage import Counts, Opened, Parts, Scope, Stage, option
from parawire.store import store_of


class AlignScope(Scope):
    """Which references a run searches from; the parameters come from [align]."""

    since: date | None = option(None, "First day of references.")
    until: date | None = option(None, "Last day of references.")
    language: str | None = option(None, "Only references in this language.", flag="--lang")
    topic: str | None = option(None, "Only references on this topic.")


def open_alignment(settings: Settings, scope: AlignScope) -> Opened:
    """Open (or resume) the run for [align] and the scope; its pending references in batches."""
    params = AlignParams.from_config(settings.align, **scope.model_dump())
    run, pending = start_run(store_of(settings), params)
    assert run.id is not None
    size, payload = settings.align.batch_size, params.to_json()
    parts = [{"params": payload, "references": pending[i:i + size]}
             for i in range(0, len(pending), size)]
    return Opened(run_id=run.id, parts=parts, total=len(pending), unit="reference")


def align_part(settings: Settings, run_id: int, part: dict[str, Any]) -> Counts:
    """Search one batch of a run's references and store its pairs."""
    return align_batch(store_of(settings), open_index(settings), run_id,
                       AlignParams.from_json(part["params"]), part["references"])


def close_alignment(settings: Settings, run_id: int, counts: list[Counts]) -> Counts:
    """Close a run with this pass's batch counts added to earlier passes'."""
    return {"run_id": run_id, **finish_run(store_of(settings), run_id, counts)}


def references_done(settings: Settings, run_id: int) -> int:
    """How many of a run's references have been searched."""
    return store_of(settings).count_done_references(run_id)


ALIGN = Stage(
    name="align", summary="Mine paraphrase pairs with the highly constrained similarity search.",
    scope=AlignScope,
    parts=Parts(open=open_alignment, part=align_part, close=close_alignment, done=references_done))


class ExportScope(Scope):
    """Which run to export, where, and how its pairs become examples ([export] defaults)."""

    run_id: int | None = option(None, "Alignment run [default: the latest].", flag="--run")
    format: Literal["jsonl", "tsv", "parquet"] | None = option(
        None, "File format [default: export.format].")
    language: str | None = option(None, "Only pairs in this language.", flag="--lang")
    out: str | None = option(None, "Output folder [default: export.dir/run-N].")
    seed: int | None = option(None, "Seed of the split [default: export.seed].")
    one_target_per_input: bool | None = option(
        None, "Keep the best target of each input only [default: export.one_target_per_input].",
        flag="--one-target-per-input/--all-targets")
    flipped: bool | None = option(None, "Add each pair reversed as well [default: export.flipped].",
                                  flag="--flipped/--no-flipped")


def export(settings: Settings, scope: ExportScope) -> Counts:
    """Write a run's dataset (the latest run by default) with its datasheet."""
    store = store_of(settings)
    given = scope.model_dump(include={"format", "seed", "one_target_per_input", "flipped"},
                             exclude_none=True)
    config = settings.export.model_copy(update=given)
    run_id = scope.run_id
    if run_id is None:
        runs = store.alignment_runs(limit=1)
        if not runs or runs[0].id is None:
            raise ParawireError("no alignment run to export: run `parawire align` first")
        run_id = runs[0].id
    options = DatasetOptions(one_target_per_input=config.one_target_per_input,
                             flipped=config.flipped, seed=config.seed, language=scope.language)
    path = Path(scope.out) if scope.out else settings.export_dir / f"run-{run_id}"
    sheet = export_run(store, run_id, path, config.format, options,
                       lambda language: pipeline_description(settings.nlp, language))
    return {"run_id": run_id, "path": str(path), "examples": sheet["examples"],
            "mined_pairs": sheet["mined_pairs"]}


EXPORT = Stage(name="export", summary="Write a run's pairs as train/valid/test files with a datasheet.",
               scope=ExportScope, work=export)
