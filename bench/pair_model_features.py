"""Which features and training pairs the shipped pair model uses, chosen on the dev gold's
tune part alone (grouped cross-validation; the check part is never read here).

    nice -n 10 .venv/bin/python bench/pair_model_features.py [--folds 8]

Each recipe (a feature set, with or without MSRP train's binary pairs at a weight) is fitted
on the tune stories of all folds but one and grades the pairs of the held-out stories; the
out-of-fold gradings are then scored as bench/pair_model_quality.py scores the check part
(a pair selected when graded >= 3, useful when gold grade >= 4 or 3 with the input the run
chooses covering), at the model's own grades, with a floor on P(grade >= 3), and with a
floor on the share of the target's content words the input states (`export.min_target_coverage`
is the floor of the best F0.5 here, precision weighing twice recall). MSRP train's
features are computed once (about 4 minutes) and cached in bench/.cache/. One recipe adds
`title_pair` (1 where both sides are titles), a flag only this bench computes.
"""

from __future__ import annotations

import argparse
import json

from common import SHARED_DATA, report
from pair_model_quality import cached_features
from sklearn.model_selection import GroupKFold

from parawire.aligner import FEATURES, MODEL_FEATURES, Grading, fit_pair_model
from parawire.roof.pair_gold import GradedText, binary_as_graded, read_dev_gold
from parawire.roof.scorer_evaluation import useful_figures
from parawire.roof.scorer_training import BINARY_WEIGHT, read_labelled_pairs

FLOORS = (0.0, 0.5, 0.6, 0.7)
COVERAGE_FLOORS = (0.6, 0.65, 0.7, 0.75)
SUMMARY = ("selected", "precision", "recall", "f1", "grade4_recall", "grade3_direction_accuracy")


def out_of_fold(tune: list[GradedText], rows: list[dict[str, float]], features: tuple[str, ...],
                extra: list[GradedText], extra_rows: list[dict[str, float]],
                folds: int) -> list[Grading]:
    """Each tune pair graded by a model fitted without its story (plus the extra pairs)."""
    gradings: list[Grading | None] = [None] * len(tune)
    splits = GroupKFold(folds).split(rows, groups=[p.group for p in tune])
    for train, held in splits:
        fitted = [tune[i] for i in train] + extra
        model = fit_pair_model([rows[i] for i in train] + extra_rows,
                               [p.grade for p in fitted], [p.direction for p in fitted],
                               [p.weight for p in fitted], trained_on="fold",
                               features=features)
        for i in held:
            gradings[i] = model.grading(rows[i])
    return [g for g in gradings if g is not None]


def f_half(figures: dict) -> float:
    """F0.5 of the figures' precision and recall (precision weighs twice recall)."""
    precision, recall = figures["precision"], figures["recall"]
    return round(1.25 * precision * recall / (0.25 * precision + recall), 4) if recall else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=8)
    args = parser.parse_args()
    tune = read_dev_gold(SHARED_DATA / "pairs-dev", "tune")
    rows = cached_features("tune", tune)
    msrp = binary_as_graded(read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-train.tsv"),
                            BINARY_WEIGHT)
    msrp_rows = cached_features("msrp_train", msrp)
    titles = {s["text"] for s in map(json.loads, (SHARED_DATA / "pairs-dev" / "sentences.jsonl")
                                     .open(encoding="utf-8")) if s["kind"] == "title"}
    rows = [{**row, "title_pair": float(p.text_a in titles and p.text_b in titles)}
            for p, row in zip(tune, rows, strict=True)]
    recipes = {"model_features": (MODEL_FEATURES, False),
               "model_features_with_title_flag": ((*MODEL_FEATURES, "title_pair"), False),
               "all_features": (FEATURES, False),
               "model_features_with_msrp": (MODEL_FEATURES, True),
               "all_features_with_msrp": (FEATURES, True)}
    results = {}
    for name, (features, with_msrp) in recipes.items():
        gradings = out_of_fold(tune, rows, features, msrp if with_msrp else [],
                               msrp_rows if with_msrp else [], args.folds)
        results[name] = {
            f"floor_{floor}": {key: figures[key] for key in SUMMARY}
            for floor in FLOORS
            for figures in [useful_figures(tune, rows, gradings, floor)]}
        results[name].update({
            f"target_coverage_{floor}": {**{key: figures[key] for key in SUMMARY},
                                         "f0.5": f_half(figures)}
            for floor in COVERAGE_FLOORS
            for figures in [useful_figures(tune, rows, gradings, min_target_coverage=floor)]})
        print(name, results[name]["floor_0.0"], flush=True)
    report("pair_model_features", {
        "data": f"pairs-dev tune, {len(tune)} candidates, {args.folds} folds grouped by story",
        "msrp_weight": BINARY_WEIGHT, "model_features": list(MODEL_FEATURES),
        "recipes": results})


if __name__ == "__main__":
    main()
