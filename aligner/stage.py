"""The align and export stages, in the stage contract's shape.

Alignment is a split stage: opening a run selects its references (resuming the run with
the same parameters and scope), each part searches one batch of references, closing the
run totals the counts. Where the parts run is the roof's business."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Literal

from parawire.aligner.candidates import VectorsOf
from parawire.aligner.dataset import DatasetOptions
from parawire.aligner.export import Provenance, export_run
from parawire.aligner.params import AlignParams
from parawire.aligner.run import align_batch, finish_run, start_run
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import VectorStore, open_index, open_views, stored_vectors
from parawire.nlp import embedder_for, pipeline_description
from parawire.stage import Counts, Opened, Parts, Scope, Stage, option
from parawire.store import BatchOverlap, Store, store_of


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


def _vectors(settings: Settings, store: Store, params: AlignParams) -> VectorsOf | None:
    """Each language's sentence vectors, opened once when first asked for, when the run's
    method reads them (a run without --lang searches every language among its own)."""
    if params.method == "hcsss":
        return None
    opened: dict[str, VectorStore] = {}

    def vectors_of(language: str) -> VectorStore:
        if language not in opened:
            files = stored_vectors(settings, language)
            files.check_store(store.last_sentence_id())
            opened[language] = files
        return opened[language]

    return vectors_of


def align_part(settings: Settings, run_id: int, part: dict[str, Any]) -> Counts:
    """Search the references of one batch that no other batch has stored yet (a batch can
    be delivered twice, or sent again by a client that lost it), and store their pairs."""
    store, params = store_of(settings), AlignParams.from_json(part["params"])
    references: list[int] = part["references"]
    while True:
        done = store.done_references(run_id, references)
        references = [ref for ref in references if ref not in done]
        if not references:
            return {}
        try:
            return align_batch(store, open_index(settings), run_id, params, references,
                               lambda lang: embedder_for(settings.vectors, settings.data_dir, lang),
                               _vectors(settings, store, params))
        except BatchOverlap:
            continue  # another delivery stored some of them meanwhile: search the rest


def close_alignment(settings: Settings, run_id: int, counts: list[Counts]) -> Counts:
    """Close a run with the counts stored with its batches (the parts' own `counts` are
    among them, with every earlier pass's); with Elasticsearch, its pairs go to the pairs
    view first."""
    del counts
    store, views = store_of(settings), open_views(settings)
    # Elasticsearch: the pairs view for Kibana, in step with the store before the run closes
    published = {} if views is None else {"pairs_published": views.sync_pairs(store)}
    return {"run_id": run_id, **finish_run(store, run_id), **published}


def references_done(settings: Settings, run_id: int) -> int:
    """How many of a run's references have been searched."""
    return store_of(settings).count_done_references(run_id)


def stop_alignment(settings: Settings, run_id: int, status: str, reason: str) -> None:
    """End a run that cannot go on ("interrupted" or "failed"), with the reason."""
    store_of(settings).stop_alignment_run(run_id, status, reason)


ALIGN = Stage(
    name="align", summary="Mine paraphrase pairs with the highly constrained similarity search.",
    scope=AlignScope,
    parts=Parts(open=open_alignment, part=align_part, close=close_alignment, done=references_done,
                stop=stop_alignment))


class ExportScope(Scope):
    """Which run to export, where, and how its pairs become examples ([export] defaults)."""

    run_id: int | None = option(None, "Alignment run [default: the latest].", flag="--run")
    format: Literal["jsonl", "tsv", "parquet"] | None = option(
        None, "File format [default: export.format].")
    language: str | None = option(None, "Only pairs in this language.", flag="--lang")
    out: str | None = option(
        None, "Output folder, new or empty [default: export.dir/run-N-FORMAT].", path=True)
    seed: int | None = option(None, "Seed of the split [default: export.seed].")
    one_target_per_input: bool | None = option(
        None, "Keep the best target of each input only [default: export.one_target_per_input].",
        flag="--one-target-per-input/--all-targets")
    one_input_per_target: bool | None = option(
        None, "Keep the most probable input of each target only "
        "[default: export.one_input_per_target].", flag="--one-input-per-target/--all-inputs")
    flipped: bool | None = option(None, "Add each pair reversed as well [default: export.flipped].",
                                  flag="--flipped/--no-flipped")
    min_grade: int | None = option(None, "Lowest grade exported [default: export.min_grade].",
                                    ge=0, le=5)
    directional: bool | None = option(
        None, "Grade-3 pairs only with the covering side as input, never flipped "
        "[default: export.directional].", flag="--directional/--no-directional")
    min_divergence: float | None = option(
        None, "Lowest lexical divergence, 1 - BLEU [default: export.min_divergence].", ge=0, le=1)
    max_divergence: float | None = option(
        None, "Highest lexical divergence [default: export.max_divergence].", ge=0, le=1)
    quote_pairs: bool | None = option(
        None, "Keep quote-derived pairs [default: export.quote_pairs].",
        flag="--quote-pairs/--no-quote-pairs")
    min_target_words: int | None = option(
        None, "Fewest words of a target [default: export.min_target_words].", ge=0)
    min_probability: float | None = option(
        None, "Lowest P(grade >= 3), the pair model's [default: export.min_probability].",
        ge=0, le=1)
    min_target_coverage: float | None = option(
        None, "Lowest share of the target's content words the input states "
        "[default: export.min_target_coverage].", ge=0, le=1)

    def for_caller(self, settings: Settings) -> ExportScope:
        """The run (the latest by default) and the output folder, absolute, as the caller
        sees them: a worker writes where the user ran the command."""
        scope = super().for_caller(settings)
        assert isinstance(scope, ExportScope)
        run_id = scope.run_id if scope.run_id is not None else _latest_run(settings)
        fmt = scope.format or settings.export.format
        out = scope.out or str((settings.export_dir / f"run-{run_id}-{fmt}").resolve())
        return scope.model_copy(update={"run_id": run_id, "format": fmt, "out": out})


def _latest_run(settings: Settings) -> int:
    runs = store_of(settings).alignment_runs(limit=1)
    if not runs or runs[0].id is None:
        raise ParawireError("no alignment run to export: run `parawire align` first")
    return runs[0].id


def export(settings: Settings, scope: ExportScope) -> Counts:
    """Write a run's dataset (the latest run by default) with its datasheet."""
    scope = scope.for_caller(settings)
    assert scope.run_id is not None and scope.out is not None
    chosen = {"one_target_per_input", "one_input_per_target", "flipped", "min_grade",
              "directional", "min_divergence", "max_divergence", "quote_pairs",
              "min_target_words", "min_probability", "min_target_coverage"}
    given = scope.model_dump(include={"format", "seed", *chosen}, exclude_none=True)
    config = settings.export.model_validate({**settings.export.model_dump(), **given})
    options = DatasetOptions(seed=config.seed, language=scope.language,
                             **config.model_dump(include=chosen))
    pipelines = _pipelines(settings)
    about = Provenance(licence=config.licence, pipelines=pipelines,
                       pipeline_details={lang: pipeline_description(settings.nlp, lang)
                                         for lang in pipelines})
    sheet = export_run(store_of(settings), scope.run_id, Path(scope.out), config.format,
                       options, about)
    return {"run_id": scope.run_id, "path": scope.out,
            **{key: sheet[key] for key in ("pairs_mined", "pairs_kept", "examples_written",
                                           "flipped_copies", "examples")}}


def _pipelines(settings: Settings) -> dict[str, str]:
    """The NLP pipeline configured for each language that [nlp] names."""
    nlp = settings.nlp
    named = {"spacy": nlp.models, "stanza": nlp.stanza_packages}
    return {lang: f"{nlp.backend_for(lang)} {named[nlp.backend_for(lang)].get(lang, 'default')}"
            for lang in nlp.languages}


EXPORT = Stage(name="export", summary="Write a run's pairs as train/valid/test files with a datasheet.",
               scope=ExportScope, work=export)
