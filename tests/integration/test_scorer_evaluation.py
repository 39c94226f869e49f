"""`parawire scorer evaluate`: the shipped pair model on slices of real labelled pairs (MSRP
val, one story of the dev gold's check part), and bad input."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from click.testing import CliRunner

from parawire.aligner import load_pair_model
from parawire.config import load_settings
from parawire.roof.cli import main
from parawire.roof.pair_gold import binary_as_graded
from parawire.roof.scorer_training import graded_features, read_labelled_pairs


def _evaluate(tmp_path: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["scorer", "evaluate", *args],
                                env={"PARAWIRE_DATA_DIR": str(tmp_path / "data")})
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_binary_labels_are_counted_at_the_configured_probability(shared_data, tmp_path):
    lines = (shared_data / "msrp" / "msr-para-val.tsv").read_text(encoding="utf-8-sig")
    labels = tmp_path / "slice.tsv"
    labels.write_text("\n".join(lines.splitlines()[:31]) + "\n", encoding="utf-8")
    out = _evaluate(tmp_path, "--labels", str(labels))

    model = load_pair_model()
    assert out["model"] == model.version
    figures = out["slice.tsv"]
    pairs = read_labelled_pairs(labels)
    assert (figures["pairs"], figures["paraphrases"]) == (30, sum(p[0] for p in pairs))
    # the same count by hand, from the model's probabilities of grade 4-5
    rows = graded_features(load_settings(data_dir=tmp_path / "data"),
                           binary_as_graded(pairs, 1.0), "en")
    called = [label for (label, _, _), row in zip(pairs, rows, strict=True)
              if sum(model.grading(row).probabilities[4:]) >= 0.25]
    assert figures["equivalent_probability_0.25"]["selected"] == len(called)
    assert figures["equivalent_probability_0.25"]["recall"] == \
        round(sum(called) / figures["paraphrases"], 4)


def test_a_dev_gold_story_is_read_pair_by_pair(shared_data, tmp_path):
    source = shared_data / "pairs-dev"
    sentences = [json.loads(line) for line in (source / "sentences.jsonl").open()]
    story = next(s["story"] for s in sentences if s["part"] == "check")
    gold = tmp_path / "gold"
    gold.mkdir()
    for name in ("sentences.jsonl", "gold.jsonl"):
        kept = [line for line in (source / name).open() if json.loads(line)["story"] == story]
        (gold / name).write_text("".join(kept), encoding="utf-8")
    out = _evaluate(tmp_path, "--gold", str(gold))

    figures = out["gold check"]
    mine = [s for s in sentences if s["story"] == story]
    candidates = sum(x["article"] != y["article"] and x["kind"] == y["kind"]
                     for x, y in combinations(mine, 2))
    useful = sum(json.loads(line)["grade"] >= 3 for line in (gold / "gold.jsonl").open())
    assert (figures["candidates"], figures["useful_gold"]) == (candidates, useful)
    assert sum(map(sum, figures["confusion_gold_rows_predicted_columns"])) == candidates
    assert 0 <= figures["precision"] <= 1 and 0 <= figures["recall"] <= 1


def test_nothing_to_evaluate_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["scorer", "evaluate"],
                                env={"PARAWIRE_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 1
    assert "nothing to evaluate the pair model on: give --gold DIR or --labels FILE" in \
        result.output
