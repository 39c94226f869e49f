"""Exports of a real run (the demo articles) in every format, loadable with `datasets`."""

from __future__ import annotations

import csv
import json
import os
import stat

import pyarrow.parquet as pq
import pytest

from parawire.aligner import DatasetOptions, export_run
from parawire.aligner.export import Provenance
from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_demo_articles


@pytest.fixture(scope="module")
def aligned(tmp_path_factory):
    data = tmp_path_factory.mktemp("export")
    # module-scoped: conftest's window pin (a per-test environment variable) comes too late
    settings = load_settings(data_dir=data, align={"within": "window"})
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
        folder = tmp_path / "out" / ("splits" if fmt == "parquet" else "")
        path = folder / f"{name}.{fmt}"
        if fmt == "jsonl":
            part = [json.loads(line) for line in path.read_text().splitlines()]
        elif fmt == "tsv":
            part = list(csv.DictReader(path.open(), delimiter="\t"))
        else:
            part = pq.read_table(path).to_pylist()
        assert len(part) == sheet["examples"][name]
        rows += part
    # every pair flipped but the grade-3 ones (their covering side stays the input)
    grade3 = sheet["grades"].get("3", 0)
    assert len(rows) == sheet["examples_written"] == 2 * sheet["pairs_kept"] - grade3
    assert sheet["flipped_copies"] == sheet["pairs_kept"] - grade3
    assert sum(sheet["grades"].values()) == sum(sheet["directions"].values()) == \
        sum(sheet["outlet_pairs"].values()) == sum(sheet["kinds"].values()) == sheet["pairs_kept"]
    for r in rows:  # graded useful pairs, their direction read from the input
        assert int(r["grade"]) >= 3 and r["quote_derived"] in (False, "False")
        assert r["direction"] in ("equivalent", "a_covers_b", "b_covers_a")
        assert (r["direction"] == "b_covers_a") == (str(r["flipped"]) == "True"
                                                    and int(r["grade"]) == 3)
        assert 0.2 <= float(r["divergence"]) <= 1.0 and 0 <= float(r["probability"]) <= 1
        if r["kind"] == "title":  # two titles, whole
            assert (r["input"], r["target"]) == (r["input_title"].strip(),
                                                 r["target_title"].strip())
        else:
            assert r["kind"] == "sentence" and r["input"] != r["input_title"]
    assert all(r["input"] != r["target"] and r["input_outlet"] != r["target_outlet"] for r in rows)
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
    assert {"input", "target", "score", "input_outlet", "input_url"} <= set(loaded["train"].column_names)


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
    assert sheet["pairs_mined"] == run.counts["pairs"]
    # the pairs not kept are those the graded filters drop, the repeats of a text pair (a
    # wire story's copies) and a target's less probable inputs, each counted by reason
    dropped = sum(sheet["dataset_counts"].get(reason, 0) for reason in (
        "below_grade", "below_probability", "uncovered_target", "not_oriented",
        "quote_derived", "divergence", "short_target",
        "repeated_text_pairs", "extra_inputs", "other_language"))
    assert sheet["pairs_kept"] + dropped == sheet["pairs_mined"]
    assert sheet["languages"] == ["en"]
    assert set(sheet["outlets"]) <= {"harbor-gazette", "metro-bulletin", "valley-courier",
                                     "coastline-wire", "civic-ledger"}


def test_bad_format_and_run_are_one_line_errors(aligned, tmp_path):
    settings, run_id = aligned
    with pytest.raises(ParawireError, match="accepted: jsonl, tsv, parquet"):
        export_run(store_of(settings), run_id, tmp_path / "x", "xml")
    with pytest.raises(ParawireError, match="no alignment run 999"):
        export_run(store_of(settings), 999, tmp_path / "x", "jsonl")


def test_rows_name_both_articles_and_the_datasheet_its_sources(aligned, tmp_path):
    settings, run_id = aligned
    store = store_of(settings)
    sheet = export_run(store, run_id, tmp_path / "out", "jsonl",
                       about=Provenance(licence="CC BY 4.0 texts only", pipelines={"en": "spacy x"}))
    rows = [json.loads(line) for line in (tmp_path / "out" / "train.jsonl").read_text().splitlines()]
    for row in rows:
        for side in ("input", "target"):
            article = store.article(row[f"{side}_article_id"])
            assert row[f"{side}_url"] == (article.canonical_url or article.url)
            assert row[f"{side}_title"] == article.title and row[f"{side}_outlet"] == article.source
            assert row[f"{side}_published"] == article.published.isoformat()
    assert sheet["licence"] == "CC BY 4.0 texts only"
    assert sheet["nlp_pipelines"] == {"en": "spacy x"}
    assert sheet["alignment_parameters"]["beta"] == settings.align.beta
    outlets = {row[f"{side}_outlet"] for row in rows for side in ("input", "target")}
    assert outlets <= set(sheet["outlets"])
    assert "licence and terms: CC BY 4.0 texts only" in (tmp_path / "out" / "datasheet.md").read_text()


def test_parquet_folder_reads_as_one_dataset_with_the_datasheet_beside(aligned, tmp_path):
    import pandas as pd

    settings, run_id = aligned
    sheet = export_run(store_of(settings), run_id, tmp_path / "out", "parquet")
    frame = pd.read_parquet(tmp_path / "out" / "splits")
    assert len(frame) == sheet["examples_written"]
    assert (tmp_path / "out" / "datasheet.json").is_file()
    assert sheet["files"]["train"] == "splits/train.parquet"


def test_export_deletes_nothing_a_user_owns(aligned, tmp_path):
    settings, run_id = aligned
    store = store_of(settings)
    mine = tmp_path / "keepme"
    mine.mkdir()
    (mine / "important.txt").write_text("keep")
    with pytest.raises(ParawireError, match=f"export folder {mine} is not empty"):
        export_run(store, run_id, mine, "jsonl")
    assert (mine / "important.txt").read_text() == "keep"
    assert sorted(p.name for p in mine.iterdir()) == ["important.txt"]


def test_export_keeps_an_earlier_export_and_rewrites_the_same_one(aligned, tmp_path):
    settings, run_id = aligned
    store = store_of(settings)
    out = tmp_path / "corpus"
    export_run(store, run_id, out, "jsonl")
    (out / "notes.txt").write_text("my notes")
    first = (out / "train.jsonl").read_text()
    export_run(store, run_id, out, "jsonl")  # the same export again: idempotent
    assert (out / "train.jsonl").read_text() == first
    assert (out / "notes.txt").read_text() == "my notes"
    with pytest.raises(ParawireError, match="holds an earlier export .run .*, jsonl., which is kept"):
        export_run(store, run_id, out, "jsonl", DatasetOptions(flipped=False))
    with pytest.raises(ParawireError, match="holds an earlier export"):
        export_run(store, run_id, out, "parquet")
    assert (out / "train.jsonl").read_text() == first
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_export_folders_have_normal_permissions(aligned, tmp_path):
    settings, run_id = aligned
    umask = os.umask(0o022)
    try:
        export_run(store_of(settings), run_id, tmp_path / "new" / "corpus", "parquet")
    finally:
        os.umask(umask)
    for folder in (tmp_path / "new" / "corpus", tmp_path / "new" / "corpus" / "splits"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o755


def test_every_format_goes_to_its_own_default_folder(aligned):
    settings, run_id = aligned
    jsonl = run_stage(settings, "export", run_id=run_id)
    parquet = run_stage(settings, "export", run_id=run_id, format="parquet")
    assert jsonl["path"] == str((settings.export_dir / f"run-{run_id}-jsonl").resolve())
    assert parquet["path"] == str((settings.export_dir / f"run-{run_id}-parquet").resolve())
    assert (settings.export_dir / f"run-{run_id}-jsonl" / "train.jsonl").is_file()
    assert jsonl["pairs_kept"] == parquet["pairs_kept"] > 0


def _exported_rows(folder) -> list[dict]:
    return [json.loads(line) for name in ("train", "valid", "test")
            for line in (folder / f"{name}.jsonl").open() if line.strip()]


def test_a_probability_floor_keeps_the_more_probable_pairs(aligned, tmp_path):
    settings, run_id = aligned
    every = run_stage(settings, "export", run_id=run_id, out=str(tmp_path / "every"))
    rows = [json.loads(line) for line in (tmp_path / "every" / "train.jsonl").open()]
    floor = sorted(r["probability"] for r in rows)[len(rows) // 2]
    floored = run_stage(settings, "export", run_id=run_id, out=str(tmp_path / "floored"),
                        min_probability=floor)
    assert 0 < floored["pairs_kept"] < every["pairs_kept"]
    kept = _exported_rows(tmp_path / "floored")
    assert kept and min(r["probability"] for r in kept) >= floor
    sheet = json.loads((tmp_path / "floored" / "datasheet.json").read_text())
    assert sheet["dataset_counts"]["below_probability"] > 0
    assert f"P(grade >= 3) under {floor}" in sheet["filters_applied"]


def test_targets_the_input_covers_too_little_are_left_out(aligned, tmp_path):
    settings, run_id = aligned
    coverage = {(r.pair.input_sentence_id, r.pair.target_sentence_id):
                r.pair.features["cover_share_b"] for r in store_of(settings).pair_rows(run_id)}

    def lowest(rows: list[dict]) -> float:
        return min(coverage[(r["input_id"], r["target_id"])] for r in rows if not r["flipped"])

    run_stage(settings, "export", run_id=run_id, out=str(tmp_path / "default"))
    sheet = json.loads((tmp_path / "default" / "datasheet.json").read_text())
    assert sheet["dataset_options"]["min_target_coverage"] == 0.65
    assert sheet["dataset_counts"]["uncovered_target"] > 0
    assert any(line.startswith("targets the input covers under 0.65")
               for line in sheet["filters_applied"])
    assert lowest(_exported_rows(tmp_path / "default")) >= 0.65
    every = run_stage(settings, "export", run_id=run_id, out=str(tmp_path / "every"),
                      min_target_coverage=0.0)
    strict = run_stage(settings, "export", run_id=run_id, out=str(tmp_path / "strict"),
                       min_target_coverage=0.9)
    assert 0 < strict["pairs_kept"] < every["pairs_kept"]
    assert lowest(_exported_rows(tmp_path / "strict")) >= 0.9 > \
        lowest(_exported_rows(tmp_path / "every"))
    loose = json.loads((tmp_path / "every" / "datasheet.json").read_text())
    assert not any(line.startswith("targets the input covers")
                   for line in loose["filters_applied"])


def test_an_empty_export_is_an_error(aligned, tmp_path):
    settings, run_id = aligned
    with pytest.raises(ParawireError, match=f"none of the \\d+ pairs of alignment run {run_id} "
                                            "passes the export's choices \\(\\d+ other "
                                            "language\\)"):
        export_run(store_of(settings), run_id, tmp_path / "out", "jsonl",
                   DatasetOptions(language="xx"))
    assert not (tmp_path / "out").exists()
    empty = store_of(settings).find_or_start_alignment_run("no pairs", {})
    with pytest.raises(ParawireError, match=f"alignment run {empty.id} has no pairs to export"):
        export_run(store_of(settings), empty.id, tmp_path / "out", "jsonl")
    assert not (tmp_path / "out").exists()
