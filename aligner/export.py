"""Corpus export: a run's dataset as JSONL, TSV or Parquet splits, with a datasheet."""

from __future__ import annotations

import csv
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from parawire.aligner.dataset import SPLITS, DatasetOptions, Example, build_dataset
from parawire.errors import ParawireError
from parawire.records import Sentence
from parawire.store import Store

FORMATS = ("jsonl", "tsv", "parquet")
COLUMNS = (
    "input", "target", "score", "raw_score", "language", "run_id", "flipped", "shared_pn",
    "shared_cn", "input_id", "input_article_id", "input_source", "input_published",
    "target_id", "target_article_id", "target_source", "target_published",
)


def _side(prefix: str, sentence: Sentence) -> dict[str, Any]:
    return {
        f"{prefix}_id": sentence.id,
        f"{prefix}_article_id": sentence.article_id,
        f"{prefix}_source": sentence.source,
        f"{prefix}_published": sentence.published.isoformat() if sentence.published else None,
    }


def example_record(example: Example) -> dict[str, Any]:
    """The exported columns of one example (flipped copies swap both sides)."""
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
        **_side("input", source),
        **_side("target", target),
    }


def _write(records: list[dict[str, Any]], path: Path, fmt: str) -> None:
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
        pq.write_table(pa.table(columns), path)


def datasheet(store: Store, run_id: int, fmt: str, options: DatasetOptions,
              examples: dict[str, list[Example]], counts: Counter[str],
              describe: Callable[[str], dict[str, Any]] | None = None) -> dict[str, Any]:
    """What the corpus holds and how it was made (with `describe`, the NLP pipeline of each
    language)."""
    run = store.alignment_run(run_id)
    assert run is not None
    sentences = [e.source_side for split in examples.values() for e in split]
    days = sorted(s.published for s in sentences if s.published)
    languages = sorted({s.language for s in sentences})
    return {
        "corpus": "parawire paraphrase pairs",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "run_id": run_id,
        "format": fmt,
        "languages": languages,
        "pipelines": {language: describe(language) for language in languages} if describe else {},
        "examples": {name: len(items) for name, items in examples.items()},
        "mined_pairs": sum(1 for split in examples.values() for e in split if not e.flipped),
        "outlets": dict(Counter(s.source for s in sentences).most_common()),
        "date_range": [days[0].isoformat(), days[-1].isoformat()] if days else None,
        "alignment_parameters": run.parameters,
        "alignment_counts": run.counts,
        "dataset_options": {"one_target_per_input": options.one_target_per_input,
                            "flipped": options.flipped, "ratios": list(options.ratios),
                            "seed": options.seed, "language": options.language},
        "dataset_counts": dict(counts),
        "filters_applied": [
            "Algorithm 1 (proper nouns, common nouns, alpha)", "beta threshold",
            "syndicated copies (SimHash near-duplicates)",
            "near-verbatim copies (token Jaccard)", "length ratio", "symmetric duplicates",
            *(["semantic similarity (USE v3 cosine)"]
              if run.parameters.get("min_semantic_similarity") else []),
            *(["one target per input"] if options.one_target_per_input else []),
            *(["language"] if options.language else []),
        ],
        "splits": "by connected group of sentences: no sentence appears in two splits",
    }


def datasheet_markdown(sheet: dict[str, Any]) -> str:
    """The datasheet as a short Markdown page."""
    lines = [f"# Datasheet: {sheet['corpus']} (run {sheet['run_id']})", "",
             f"- created: {sheet['created']}", f"- format: {sheet['format']}",
             f"- languages: {', '.join(sheet['languages']) or 'none'}",
             f"- date range: {sheet['date_range']}",
             f"- mined pairs: {sheet['mined_pairs']}",
             f"- splits: {sheet['splits']}", "", "## Examples per split", ""]
    lines += [f"- {name}: {count}" for name, count in sheet["examples"].items()]
    lines += ["", "## Outlets (input side)", ""]
    lines += [f"- {name}: {count}" for name, count in sheet["outlets"].items()]
    lines += ["", "## Filters applied", ""] + [f"- {f}" for f in sheet["filters_applied"]]
    for language, pipeline in sheet.get("pipelines", {}).items():
        lines += ["", f"## NLP pipeline ({language})", ""]
        lines += [f"- {k}: {v}" for k, v in pipeline.items()]
    for title, key in (("Alignment parameters", "alignment_parameters"),
                       ("Alignment counts", "alignment_counts"),
                       ("Dataset options", "dataset_options"), ("Dataset counts", "dataset_counts")):
        lines += ["", f"## {title}", ""] + [f"- {k}: {v}" for k, v in sheet[key].items()]
    return "\n".join(lines) + "\n"


def export_run(store: Store, run_id: int, out_dir: Path, fmt: str = "jsonl",
               options: DatasetOptions | None = None,
               describe: Callable[[str], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Write train/valid/test files and the datasheet to out_dir (replaced as a whole);
    `describe` gives the datasheet each language's NLP pipeline."""
    if fmt not in FORMATS:
        raise ParawireError(f"unknown export format {fmt!r}; accepted: {', '.join(FORMATS)}")
    if store.alignment_run(run_id) is None:
        raise ParawireError(f"no alignment run {run_id}")
    options = options or DatasetOptions()
    examples, counts = build_dataset(store.pair_rows(run_id), options)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        for name in SPLITS:
            _write([example_record(e) for e in examples[name]], staging / f"{name}.{fmt}", fmt)
        sheet = datasheet(store, run_id, fmt, options, examples, counts, describe)
        (staging / "datasheet.json").write_text(json.dumps(sheet, indent=2) + "\n")
        (staging / "datasheet.md").write_text(datasheet_markdown(sheet))
        if out_dir.exists():
            shutil.rmtree(out_dir)
        staging.rename(out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return sheet
