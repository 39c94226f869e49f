"""Exports of a real run (the demo articles) in every format, loadable with `datasets`."""

from __future__ import annotations

import csv
import json

import pyarrow.parquet as pq
import pytest

from parawire.aligner import DatasetOptions, export_run
from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_demo_articles


@pytest.fixture(scope="module")
def aligned(tmp_path_factory):
    data = tmp_path_factory.mktemp("export")
    settings = load_settings(data_dir=data)
    store_demo_articles(store_of(settings))
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    run = run_stage(settings, "align")
    return settings, run["run_id"]


@pytest.mark.parametrize("fmt", ["jsonl", "tsv", "parquet"])
def test_every_format_holds_the_same_examples(aligned, tmp_path, fmt):
    settings, run_id = aligned
    store = store_of(settings)
    sheet = export_run(store, run_id, tmp_path / "out", fmt, DatasetOptions())
    rows = []
    for name in ("train", "valid", "test"):
        path = tmp_path / "out" / f"{name}.{fmt}"
        if fmt == "jsonl":
            part = [json.loads(line) for line in path.read_text().splitlines()]
        elif fmt == "tsv":
            part = list(csv.DictReader(path.open(), delimiter="\t"))
        else:
            part = pq.read_table(path).to_pylist()
        assert len(part) == sheet["examples"][name]
        rows += part
    assert len(rows) == 2 * sheet["mined_pairs"]  # flipped copies double the pairs
    assert all(r["input"] != r["target"] and r["input_source"] != r["target_source"] for r in rows)
    assert json.loads((tmp_path / "out" / "datasheet.json").read_text())["run_id"] == run_id
    assert "## Filters applied" in (tmp_path / "out" / "datasheet.md").read_text()


def test_jsonl_export_loads_with_datasets(aligned, tmp_path):
    from datasets import load_dataset

    settings, run_id = aligned
    sheet = export_run(store_of(settings), run_id, tmp_path / "out", "jsonl")
    files = {name: str(tmp_path / "out" / f"{name}.jsonl") for name in ("train", "valid", "test")
             if sheet["examples"][name]}
    loaded = load_dataset("json", data_files=files, cache_dir=str(tmp_path / "cache"))
    assert loaded["train"].num_rows == sheet["examples"]["train"]
    assert {"input", "target", "score", "input_source"} <= set(loaded["train"].column_names)


def test_splits_share_no_sentence_and_the_datasheet_counts(aligned, tmp_path):
    settings, run_id = aligned
    sheet = export_run(store_of(settings), run_id, tmp_path / "out", "jsonl",
                       DatasetOptions(one_target_per_input=False, flipped=False))
    ids = {}
    for name in ("train", "valid", "test"):
        lines = (tmp_path / "out" / f"{name}.jsonl").read_text().splitlines()
        ids[name] = {i for r in map(json.loads, lines) for i in (r["input_id"], r["target_id"])}
    assert not (ids["train"] & ids["valid"] or ids["train"] & ids["test"]
                or ids["valid"] & ids["test"])
    run = store_of(settings).alignment_run(run_id)
    assert sheet["mined_pairs"] == run.counts["pairs"]
    assert sheet["languages"] == ["en"]
    assert set(sheet["outlets"]) <= {"harbor-gazette", "metro-bulletin", "valley-courier",
                                     "coastline-wire", "civic-ledger"}


def test_bad_format_and_run_are_one_line_errors(aligned, tmp_path):
    settings, run_id = aligned
    with pytest.raises(ParawireError, match="accepted: jsonl, tsv, parquet"):
        export_run(store_of(settings), run_id, tmp_path / "x", "xml")
    with pytest.raises(ParawireError, match="no alignment run 999"):
        export_run(store_of(settings), 999, tmp_path / "x", "jsonl")
