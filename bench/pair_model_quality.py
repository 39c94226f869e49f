"""Pair model quality on the dev gold's check part and MSRP val (the shipped model is fitted
on the dev gold's tune part and MSRP train; nothing here is tuned on check or val).

    nice -n 10 .venv/bin/python bench/pair_model_quality.py [--model FILE]

Dev gold, check part: every cross-article pair of a story's lead sentences, and of its
titles, is a candidate (an unlisted pair is grade 0). A pair is useful when its gold grade
is >= 4, or 3 with the input (as the run orients it) being the covering side; a pair is
selected when the model grades it >= 3. The direction accuracy is over gold grade-3 pairs
selected: the share whose input is the covering side. Reports precision and recall of
useful pairs, recall of grade >= 4, the grade confusion matrix, the direction accuracy on
gold grade-3 pairs the model selects. MSRP val: a pair predicted a paraphrase when graded
>= 4 (and >= 3 for comparison). Features are computed once and cached in bench/.cache/.
Beside the check figures: main's old path (filters and binary scorer) on the same candidates,
scored the same way, as bench/old_path_quality.py measured it at commit b97e1f4 (its result
kept in bench/baselines/; the script and the old code it ran were removed after it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from common import SEED_CACHE, SHARED_DATA, report

from parawire.aligner import load_pair_model
from parawire.config import load_settings
from parawire.records import Direction
from parawire.roof.pair_gold import GradedText, binary_as_graded, read_dev_gold
from parawire.roof.scorer_training import graded_features, read_labelled_pairs


def cached_features(name: str, pairs: list[GradedText]) -> list[dict[str, float]]:
    """The pairs' features, computed once (annotation and embedding) and kept in .cache."""
    cache = SEED_CACHE.with_name(f"pair_features_{name}.json")
    if cache.is_file():
        return json.loads(cache.read_text())
    settings = load_settings(data_dir=SEED_CACHE.parent / "pair-model-data")
    rows = graded_features(settings, pairs, "en")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(rows))
    return rows


def input_is_a(direction: Direction, row: dict[str, float]) -> bool:
    """Whether orientation (aligner.orient) makes side a the input: the covering side, or
    for equivalent and both-add pairs Algorithm 2's side with more proper nouns (a on a
    tie: the smaller id)."""
    if direction in (Direction.A_COVERS_B, Direction.B_COVERS_A):
        return direction == Direction.A_COVERS_B
    return row["entities_only_a"] >= row["entities_only_b"]


def gold_figures(pairs: list[GradedText], rows: list[dict[str, float]], model) -> dict:
    """Precision/recall of useful pairs, grade-4 recall, confusion, grade-3 direction."""
    confusion = [[0] * 6 for _ in range(6)]
    selected = right = useful = top = top_found = covering = covering_right = 0
    for pair, row in zip(pairs, rows, strict=True):
        grading = model.grading(row)
        confusion[pair.grade][grading.grade] += 1
        is_useful = pair.grade >= 3
        useful += is_useful
        top += pair.grade >= 4
        chosen = grading.grade >= 3
        selected += chosen
        top_found += chosen and pair.grade >= 4
        oriented = input_is_a(grading.direction, row) == (pair.direction == Direction.A_COVERS_B)
        if chosen and pair.grade == 3:
            covering += 1
            covering_right += oriented
        right += chosen and (pair.grade >= 4 or (pair.grade == 3 and oriented))
    return {"candidates": len(pairs), "useful_gold": useful, "selected": selected,
            "precision": round(right / selected, 4) if selected else None,
            "recall": round(right / useful, 4) if useful else None,
            "grade4_recall": round(top_found / top, 4) if top else None,
            "grade3_found": covering,
            "grade3_direction_accuracy": round(covering_right / covering, 4) if covering else None,
            "confusion_gold_rows_predicted_columns": confusion}


def msrp_figures(pairs: list[GradedText], rows: list[dict[str, float]], model) -> dict:
    """Precision and recall of MSRP paraphrases at predicted grade >= 4 and >= 3."""
    out = {}
    grades = [model.grading(row).grade for row in rows]
    positives = sum(p.direction == Direction.EQUIVALENT for p in pairs)
    for floor in (4, 3):
        chosen = [p for p, g in zip(pairs, grades, strict=True) if g >= floor]
        hits = sum(p.direction == Direction.EQUIVALENT for p in chosen)
        out[f"grade_at_least_{floor}"] = {
            "selected": len(chosen), "precision": round(hits / len(chosen), 4) if chosen else None,
            "recall": round(hits / positives, 4)}
    return out


def old_path() -> dict | None:
    """The old path's check figures and the main commit they were measured on (None if the
    result is absent)."""
    path = Path(__file__).with_name("baselines") / "old_path_quality.json"
    if not path.is_file():
        return None
    old = json.loads(path.read_text())
    return {"code_from_main_commit": old["code_from_main_commit"], **old["dev_gold_check"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="Pair model file [default: shipped].")
    args = parser.parse_args()
    model = load_pair_model(args.model)
    check = read_dev_gold(SHARED_DATA / "pairs-dev", "check")
    val = binary_as_graded(read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-val.tsv"), 1.0)
    report("pair_model_quality", {
        "model": model.version, "trained_on": model.trained_on,
        "dev_gold_check": gold_figures(check, cached_features("check", check), model),
        "dev_gold_check_old_path": old_path(),
        "msrp_val": msrp_figures(val, cached_features("msrp_val", val), model)})


if __name__ == "__main__":
    main()
