"""Corpus export: a run's dataset as JSONL, TSV or Parquet splits, with a datasheet."""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from parawire.aligner.dataset import (
    SPLITS,
    DatasetOptions,
    Example,
    build_dataset,
    divergence,
    quote_derived,
)
from parawire.config import ExportConfig
from parawire.errors import ParawireError
from parawire.records import ArticleRef, Sentence
from parawire.store import Store

FORMATS = ("jsonl", "tsv", "parquet")
CORPUS = "parawire paraphrase pairs"  # the datasheet's name for what it describes
SIDE_COLUMNS = ("id", "article_id", "outlet", "published", "url", "title")
COLUMNS = (
    "input", "target", "score", "raw_score", "language", "run_id", "flipped", "shared_pn",
    "shared_cn", "grade", "direction", "probability", "divergence", "quote_derived", "kind",
    *(f"input_{c}" for c in SIDE_COLUMNS), *(f"target_{c}" for c in SIDE_COLUMNS),
)
# Parquet splits sit in their own folder, so that the folder reads as one dataset
# (`pandas.read_parquet(folder)`), with the datasheet beside it.
PARQUET_FOLDER = "splits"
_EXPORT_DEFAULTS = ExportConfig()  # the defaults live in the config model
DATASHEETS = ("datasheet.json", "datasheet.md")


def split_file(out_dir: Path, split: str, fmt: str) -> Path:
    """Where an export in `out_dir` keeps one split."""
    folder = out_dir / PARQUET_FOLDER if fmt == "parquet" else out_dir
    return folder / f"{split}.{fmt}"


def _side(prefix: str, sentence: Sentence, ref: ArticleRef | None) -> dict[str, Any]:
    return {
        f"{prefix}_id": sentence.id,
        f"{prefix}_article_id": sentence.article_id,
        f"{prefix}_outlet": sentence.source,
        f"{prefix}_published": sentence.published.isoformat() if sentence.published else None,
        f"{prefix}_url": ref.url if ref else None,
        f"{prefix}_title": ref.title if ref else None,
    }


def example_record(example: Example, refs: dict[int, ArticleRef]) -> dict[str, Any]:
    """The exported columns of one example (flipped copies swap both sides), with both
    articles' address and title from `refs` (by article id)."""
    pair, source, target = example.row.pair, example.source_side, example.target_side
    return {
        "input": source.text,
        "target": target.text,
        "score": round(pair.score, 6),
        "raw_score": round(pair.raw_score, 6),
        "language": source.language,
        "run_id": pair.run_id,
        "flipped": example.flipped,
        "shared_pn": pair.shared_pn,
        "shared_cn": pair.shared_cn,
        "grade": pair.grade,
        "direction": _direction(pair.direction, example.flipped),
        "probability": pair.probability,
        "divergence": None if (d := divergence(example.row)) is None else round(d, 4),
        "quote_derived": quote_derived(example.row),
        "kind": pair_kind(example),
        **_side("input", source, refs.get(source.article_id)),
        **_side("target", target, refs.get(target.article_id)),
    }


def pair_kind(example: Example) -> str:
    """"title" (two articles' titles) or "sentence" (two sentences of their texts)."""
    return "title" if example.row.input.is_title else "sentence"


def _direction(direction: str | None, flipped: bool) -> str | None:
    """The direction read from the example's input (a flipped copy reads it reversed)."""
    if flipped and direction == "a_covers_b":
        return "b_covers_a"
    return direction


def _write(records: list[dict[str, Any]], path: Path, fmt: str) -> None:
    """Write one split through a hidden file renamed into place when complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    try:
        _write_format(records, partial, fmt)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def _write_format(records: list[dict[str, Any]], path: Path, fmt: str) -> None:
    if fmt == "jsonl":
        with path.open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    elif fmt == "tsv":
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS, delimiter="\t",
                                    quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns = {name: [r[name] for r in records] for name in COLUMNS}
        pq.write_table(pa.table(columns, schema=pa.schema(
            [(name, _parquet_type(pa, name)) for name in COLUMNS])), path)


def _parquet_type(pa: Any, column: str) -> Any:
    """One fixed type per column, so that every split (an empty one too) has one schema."""
    if column in ("score", "raw_score", "probability", "divergence"):
        return pa.float64()
    if column in ("flipped", "quote_derived"):
        return pa.bool_()
    if column in ("run_id", "shared_pn", "shared_cn", "grade") or column.endswith("_id"):
        return pa.int64()
    return pa.string()


def datasheet(store: Store, run_id: int, fmt: str, options: DatasetOptions,
              examples: dict[str, list[Example]], counts: Counter[str], pairs_mined: int,
              about: Provenance) -> dict[str, Any]:
    """What the corpus holds, where its texts come from, and how it was made."""
    run = store.alignment_run(run_id)
    assert run is not None
    mined = [e for split in examples.values() for e in split if not e.flipped]
    sentences = [s for e in mined for s in (e.row.input, e.row.target)]
    days = sorted(s.published for s in sentences if s.published)
    languages = sorted({s.language for s in sentences})
    return {
        "corpus": CORPUS,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "run_id": run_id,
        "format": fmt,
        "files": {name: str(split_file(Path(), name, fmt)) for name in SPLITS},
        "languages": languages,
        "pairs_mined": pairs_mined,
        "pairs_kept": len(mined),
        "examples_written": sum(len(items) for items in examples.values()),
        "flipped_copies": counts["flipped_copies"],
        "examples": {name: len(items) for name, items in examples.items()},
        "outlets": dict(Counter(s.source for s in sentences).most_common()),
        "grades": {str(k): v for k, v in sorted(Counter(e.row.pair.grade for e in mined).items(),
                                                key=lambda kv: (kv[0] is None, kv[0] or 0))},
        "directions": dict(Counter(str(e.row.pair.direction) for e in mined).most_common()),
        "kinds": dict(Counter(pair_kind(e) for e in mined).most_common()),
        "outlet_pairs": dict(Counter(" / ".join(sorted((e.row.input.source or "",
                                                        e.row.target.source or "")))
                                     for e in mined).most_common()),
        "licence": about.licence,
        "nlp_pipelines": {lang: about.pipelines[lang] for lang in languages
                          if lang in about.pipelines},
        "nlp_pipeline_details": {lang: about.pipeline_details[lang] for lang in languages
                                 if lang in about.pipeline_details},
        "date_range": [days[0].isoformat(), days[-1].isoformat()] if days else None,
        "alignment_parameters": run.parameters,
        "alignment_counts": run.counts,
        "dataset_options": _options_json(options),
        "dataset_counts": dict(counts),
        "filters_applied": [
            "Algorithm 1 (proper nouns, common nouns, alpha)", "beta threshold",
            "a title paired with a sentence of a text (titles pair with titles)",
            "syndicated copies (SimHash near-duplicates)",
            "fragments (a full stop after no verb, or cut on a comma)",
            "pieces of a quotation (quotation marks that do not pair up)",
            "lines pointing elsewhere (a web address, a pointer label, a run of links)",
            "lines without an end mark (captions, labels, credits, cut lines)",
            "a question paired with a statement",
            "near copies (at most align.max_copy_edits words differ)",
            "number and date conflicts", "grade below align.min_stored_grade",
            f"grade >= {options.min_grade}"
            + (", grade-3 pairs only with the covering side as input" if options.directional
               else ""),
            f"lexical divergence (1 - BLEU) in [{options.min_divergence}, "
            f"{options.max_divergence}]",
            *([] if options.quote_pairs else ["quote-derived pairs"]),
            *([f"targets under {options.min_target_words} words"]
              if options.min_target_words else []),
            *([f"P(grade >= 3) under {options.min_probability}"]
              if options.min_probability else []),
            *([f"targets the input covers under {options.min_target_coverage} "
               "(the share of their content words it states)"]
              if options.min_target_coverage else []),
            "symmetric duplicates",
            "repeated text pairs (same two texts, normalised, either order)",
            *(["one target per input"] if options.one_target_per_input else []),
            *(["one input per target"] if options.one_input_per_target else []),
            *(["language"] if options.language else []),
        ],
        "splits": "by connected group of sentences: no sentence appears in two splits",
    }


def _options_json(options: DatasetOptions) -> dict[str, Any]:
    return {"one_target_per_input": options.one_target_per_input,
            "one_input_per_target": options.one_input_per_target, "flipped": options.flipped,
            "ratios": list(options.ratios), "seed": options.seed, "language": options.language,
            "min_grade": options.min_grade, "directional": options.directional,
            "divergence_band": [options.min_divergence, options.max_divergence],
            "quote_pairs": options.quote_pairs, "min_target_words": options.min_target_words,
            "min_probability": options.min_probability,
            "min_target_coverage": options.min_target_coverage}


def datasheet_markdown(sheet: dict[str, Any]) -> str:
    """The datasheet as a short Markdown page."""
    lines = [f"# Datasheet: {sheet['corpus']} (run {sheet['run_id']})", "",
             f"- created: {sheet['created']}", f"- format: {sheet['format']}",
             f"- languages: {', '.join(sheet['languages']) or 'none'}",
             f"- date range: {sheet['date_range']}",
             f"- pairs mined by the run: {sheet['pairs_mined']}",
             f"- pairs kept in the corpus: {sheet['pairs_kept']}",
             f"- examples written: {sheet['examples_written']} "
             f"(incl. {sheet['flipped_copies']} flipped copies)",
             f"- licence and terms: {sheet['licence']}",
             f"- splits: {sheet['splits']}", "", "## Examples per split", ""]
    lines += [f"- {name}: {count} ({sheet['files'][name]})"
              for name, count in sheet["examples"].items()]
    lines += ["", "## Outlets (sentences on either side of a kept pair)", ""]
    lines += [f"- {name}: {count}" for name, count in sheet["outlets"].items()]
    lines += ["", "## Filters applied", ""] + [f"- {f}" for f in sheet["filters_applied"]]
    for title, key in (("NLP pipelines", "nlp_pipelines"),
                       ("NLP pipelines: name, version, training data, scores",
                        "nlp_pipeline_details"),
                       ("Pairs per grade", "grades"), ("Pairs per direction", "directions"),
                       ("Pairs per kind (titles, sentences of the texts)", "kinds"),
                       ("Pairs per outlet pair", "outlet_pairs"),
                       ("Alignment parameters", "alignment_parameters"),
                       ("Alignment counts", "alignment_counts"),
                       ("Dataset options", "dataset_options"), ("Dataset counts", "dataset_counts")):
        lines += ["", f"## {title}", ""] + [f"- {k}: {v}" for k, v in sheet[key].items()]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Provenance:
    """What the datasheet says about the texts: their licence/terms note ([export] licence)
    and the NLP pipeline configured for each language, with its name, version, training
    data and scores where its meta.json has them."""

    licence: str = _EXPORT_DEFAULTS.licence
    pipelines: dict[str, str] = field(default_factory=dict)
    pipeline_details: dict[str, dict[str, Any]] = field(default_factory=dict)


def export_run(store: Store, run_id: int, out_dir: Path, fmt: str = "jsonl",
               options: DatasetOptions | None = None,
               about: Provenance | None = None) -> dict[str, Any]:
    """Write train/valid/test files and the datasheet into out_dir: a new or empty folder, or
    one holding this same export (re-written in place). Nothing else is removed: a folder
    holding other files or another export is refused, and an export of no pairs is an
    error."""
    if fmt not in FORMATS:
        raise ParawireError(f"unknown export format {fmt!r}; accepted: {', '.join(FORMATS)}")
    if store.alignment_run(run_id) is None:
        raise ParawireError(f"no alignment run {run_id}")
    options = options or DatasetOptions()
    rows = list(store.pair_rows(run_id))
    examples, counts = build_dataset(rows, options)
    written = sum(len(items) for items in examples.values())
    if not written:
        raise ParawireError(_nothing_to_export(run_id, len(rows), counts))
    identity = {"run_id": run_id, "format": fmt, "dataset_options": _options_json(options),
                "examples": {name: len(items) for name, items in examples.items()}}
    _check_folder(out_dir, identity)
    refs = store.article_refs({s.article_id for split in examples.values() for e in split
                               for s in (e.row.input, e.row.target)})
    for name in SPLITS:
        _write([example_record(e, refs) for e in examples[name]], split_file(out_dir, name, fmt),
               fmt)
    sheet = datasheet(store, run_id, fmt, options, examples, counts, len(rows),
                      about or Provenance())
    _write_text(out_dir / "datasheet.md", datasheet_markdown(sheet))
    _write_text(out_dir / "datasheet.json", json.dumps(sheet, indent=2) + "\n")
    return sheet


def _nothing_to_export(run_id: int, mined: int, dropped: Counter[str]) -> str:
    if not mined:
        return (f"alignment run {run_id} has no pairs to export (it mined none: see its "
                f"counts in `parawire status`)")
    reasons = ", ".join(f"{count} {reason.replace('_', ' ')}"
                        for reason, count in dropped.most_common() if count)
    return (f"none of the {mined} pairs of alignment run {run_id} passes the export's "
            f"choices ({reasons}): nothing to export")


def _check_folder(out_dir: Path, identity: dict[str, Any]) -> None:
    """Refuse a folder whose files the export could overwrite, unless they are this very
    export's (an idempotent re-run)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ParawireError(f"export folder {out_dir} is a file: choose a folder (--out)")
    if not out_dir.is_dir() or not any(out_dir.iterdir()):
        return
    earlier = _earlier_export(out_dir)
    if earlier is None:
        raise ParawireError(f"export folder {out_dir} is not empty and holds no parawire "
                            "export: choose a new or empty folder (--out)")
    if {key: earlier.get(key) for key in identity} != identity:
        raise ParawireError(
            f"export folder {out_dir} holds an earlier export (run {earlier.get('run_id')}, "
            f"{earlier.get('format')}), which is kept: choose another folder (--out)")


def _earlier_export(out_dir: Path) -> dict[str, Any] | None:
    """The datasheet of the export a folder holds, if it holds one."""
    try:
        sheet = json.loads((out_dir / DATASHEETS[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return sheet if isinstance(sheet, dict) and sheet.get("corpus") == CORPUS else None


def _write_text(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
