"""How good a pair model is on labelled pairs: the dev gold's graded ones (useful pairs as
the export chooses them) or binary ones such as MSRP's (a paraphrase or not)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parawire.aligner import Grading, load_pair_model
from parawire.config import Settings
from parawire.records import Direction
from parawire.roof.pair_gold import GradedText, binary_as_graded, read_dev_gold
from parawire.roof.scorer_training import graded_features, read_labelled_pairs


def input_is_a(direction: Direction, row: dict[str, float]) -> bool:
    """Whether orientation (aligner.orient) makes side a the input: the covering side, or
    for equivalent and both-add pairs Algorithm 2's side with more proper nouns (a on a
    tie)."""
    if direction in (Direction.A_COVERS_B, Direction.B_COVERS_A):
        return direction == Direction.A_COVERS_B
    return row["entities_only_a"] >= row["entities_only_b"]


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def target_share(direction: Direction, row: dict[str, float]) -> float:
    """The share of the target's content words that the input states, the target being the
    side orientation does not make the input (`input_is_a`)."""
    return row["cover_share_b"] if input_is_a(direction, row) else row["cover_share_a"]


def useful_figures(pairs: list[GradedText], rows: list[dict[str, float]],
                   gradings: list[Grading], floor: float = 0.0,
                   min_target_coverage: float = 0.0) -> dict[str, Any]:
    """Precision and recall of useful pairs (gold grade >= 4, or 3 with the input the run
    chooses covering), selected as the export selects them (graded >= 3, here also with
    P(grade >= 3) >= floor and the target covered at min_target_coverage or more); grade-4
    recall, the grade confusion matrix and the direction accuracy on the gold grade-3 pairs
    selected."""
    confusion = [[0] * 6 for _ in range(6)]
    selected = right = useful = top = top_found = covering = covering_right = 0
    for pair, row, grading in zip(pairs, rows, gradings, strict=True):
        confusion[pair.grade][grading.grade] += 1
        useful += pair.grade >= 3
        top += pair.grade >= 4
        chosen = (grading.grade >= 3 and sum(grading.probabilities[3:]) >= floor
                  and target_share(grading.direction, row) >= min_target_coverage)
        selected += chosen
        top_found += chosen and pair.grade >= 4
        oriented = input_is_a(grading.direction, row) == (pair.direction == Direction.A_COVERS_B)
        if chosen and pair.grade == 3:
            covering += 1
            covering_right += oriented
        right += chosen and (pair.grade >= 4 or (pair.grade == 3 and oriented))
    precision, recall = _ratio(right, selected), _ratio(right, useful)
    return {"candidates": len(pairs), "useful_gold": useful, "selected": selected,
            "precision": precision, "recall": recall,
            "f1": round(2 * precision * recall / (precision + recall), 4) if right else 0.0,
            "grade4_recall": _ratio(top_found, top), "grade3_found": covering,
            "grade3_direction_accuracy": _ratio(covering_right, covering),
            "confusion_gold_rows_predicted_columns": confusion}


def binary_figures(pairs: list[GradedText], gradings: list[Grading],
                   equivalent_probability: float) -> dict[str, Any]:
    """Precision and recall of binary labels' paraphrases (read as grade 4) when a pair is
    called one at P(grade >= 4) >= equivalent_probability, and at graded >= 4 and >= 3."""
    positives = sum(p.direction == Direction.EQUIVALENT for p in pairs)
    rules = {f"equivalent_probability_{equivalent_probability}":
             lambda g: sum(g.probabilities[4:]) >= equivalent_probability,
             "graded_at_least_4": lambda g: g.grade >= 4,
             "graded_at_least_3": lambda g: g.grade >= 3}
    out: dict[str, Any] = {"pairs": len(pairs), "paraphrases": positives}
    for name, rule in rules.items():
        chosen = [p for p, g in zip(pairs, gradings, strict=True) if rule(g)]
        hits = sum(p.direction == Direction.EQUIVALENT for p in chosen)
        out[name] = {"selected": len(chosen), "precision": _ratio(hits, len(chosen)),
                     "recall": _ratio(hits, positives)}
    return out


def evaluate_scorer(settings: Settings, *, model_path: str, gold: Path | None, part: str,
                    labels: Path | None, language: str) -> dict[str, Any]:
    """The model's figures on the dev gold's part and/or a binary labels file."""
    model = load_pair_model(model_path)
    result: dict[str, Any] = {"model": model.version, "trained_on": model.trained_on}
    if gold is not None:
        pairs = read_dev_gold(gold, part)
        rows = graded_features(settings, pairs, language)
        result[f"{gold.name} {part}"] = useful_figures(
            pairs, rows, [model.grading(row) for row in rows],
            min_target_coverage=settings.export.min_target_coverage)
    if labels is not None:
        pairs = binary_as_graded(read_labelled_pairs(labels), 1.0)
        rows = graded_features(settings, pairs, language)
        result[labels.name] = binary_figures(pairs, [model.grading(row) for row in rows],
                                             settings.scorer.equivalent_probability)
    return result
