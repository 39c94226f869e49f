"""The pair model's evaluation figures, on gradings whose right answers are worked out here."""

from __future__ import annotations

from parawire.aligner import Grading
from parawire.records import Direction
from parawire.roof.pair_gold import GradedText
from parawire.roof.scorer_evaluation import binary_figures, useful_figures

# Algorithm 2 puts side a first; each side states all of the other's content words
EVEN = {"entities_only_a": 1.0, "entities_only_b": 1.0, "cover_share_a": 1.0,
        "cover_share_b": 1.0}


def _pair(grade: int, direction: Direction) -> GradedText:
    return GradedText("a", "b", grade, direction)


def _graded(grade: int, direction: Direction, useful: float = 0.6) -> Grading:
    rest = (1 - useful) / 3
    return Grading(grade, direction, (rest, rest, rest, useful if grade == 3 else 0.0,
                                      useful if grade == 4 else 0.0, 0.0))


def test_useful_pairs_are_counted_as_the_export_chooses_them():
    pairs = [_pair(3, Direction.A_COVERS_B), _pair(3, Direction.A_COVERS_B),
             _pair(4, Direction.EQUIVALENT), _pair(2, Direction.BOTH_ADD),
             _pair(0, Direction.BOTH_ADD), _pair(3, Direction.B_COVERS_A)]
    gradings = [
        _graded(3, Direction.A_COVERS_B),          # right: the covering side is the input
        _graded(3, Direction.B_COVERS_A),          # wrong way round
        _graded(4, Direction.EQUIVALENT, 0.9),     # right
        _graded(3, Direction.A_COVERS_B),          # a grade-2 pair selected: wrong
        _graded(0, Direction.BOTH_ADD),            # rightly left out
        _graded(2, Direction.BOTH_ADD),            # a useful pair missed
    ]
    figures = useful_figures(pairs, [EVEN] * len(pairs), gradings)
    assert (figures["selected"], figures["useful_gold"]) == (4, 4)
    assert (figures["precision"], figures["recall"]) == (0.5, 0.5)
    assert figures["grade4_recall"] == 1.0
    assert (figures["grade3_found"], figures["grade3_direction_accuracy"]) == (2, 0.5)
    assert figures["confusion_gold_rows_predicted_columns"][2][3] == 1
    assert sum(map(sum, figures["confusion_gold_rows_predicted_columns"])) == len(pairs)
    # a floor on P(grade >= 3) leaves out the less sure pairs (all but the equivalent one)
    floored = useful_figures(pairs, [EVEN] * len(pairs), gradings, floor=0.8)
    assert (floored["selected"], floored["precision"], floored["recall"]) == (1, 1.0, 0.25)


def test_a_coverage_floor_reads_the_target_as_orientation_makes_it():
    pairs = [_pair(3, Direction.A_COVERS_B), _pair(3, Direction.B_COVERS_A),
             _pair(1, Direction.BOTH_ADD)]
    gradings = [_graded(3, Direction.A_COVERS_B), _graded(3, Direction.B_COVERS_A),
                _graded(3, Direction.A_COVERS_B)]
    rows = [{**EVEN, "cover_share_b": 0.9, "cover_share_a": 0.2},   # a states 0.9 of b
            {**EVEN, "cover_share_a": 0.8, "cover_share_b": 0.3},   # b is the input here
            {**EVEN, "cover_share_b": 0.5, "cover_share_a": 0.9}]   # the target half stated
    every = useful_figures(pairs, rows, gradings)
    assert (every["selected"], every["precision"]) == (3, 0.6667)
    floored = useful_figures(pairs, rows, gradings, min_target_coverage=0.65)
    assert (floored["selected"], floored["precision"], floored["recall"]) == (2, 1.0, 1.0)


def test_binary_labels_are_read_at_a_probability_and_at_grade_floors():
    pairs = [_pair(4, Direction.EQUIVALENT), _pair(4, Direction.EQUIVALENT),
             _pair(2, Direction.BOTH_ADD), _pair(2, Direction.BOTH_ADD)]
    gradings = [_graded(4, Direction.EQUIVALENT, 0.9), _graded(3, Direction.A_COVERS_B),
                _graded(4, Direction.EQUIVALENT, 0.3), _graded(1, Direction.BOTH_ADD)]
    figures = binary_figures(pairs, gradings, 0.5)
    assert (figures["pairs"], figures["paraphrases"]) == (4, 2)
    assert figures["equivalent_probability_0.5"] == {"selected": 1, "precision": 1.0,
                                                     "recall": 0.5}
    assert figures["graded_at_least_4"] == {"selected": 2, "precision": 0.5, "recall": 0.5}
    assert figures["graded_at_least_3"] == {"selected": 3, "precision": 0.6667, "recall": 1.0}
