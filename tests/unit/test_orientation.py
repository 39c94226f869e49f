"""Orientation: the covering side is the input; equivalent and both-add pairs follow
Algorithm 2 (more proper nouns first, the smaller id on a tie). And the exact rules."""

from parawire.aligner import orient
from parawire.aligner.filters import exact_rule
from parawire.records import Direction, Sentence


def sentence(id_: int, text: str, keys: list[str]) -> Sentence:
    return Sentence(id=id_, article_id=id_, position=0, text=text, entity_keys=keys)


LONG = sentence(1, "The Senate passed the budget resolution on Friday in a 51-50 vote.", ["senate"])
SHORT = sentence(2, "Senators approved the budget plan of Harris and Schumer.",
                 ["harris", "schumer", "senate"])


def test_the_covering_side_is_the_input_whichever_side_found_it():
    assert orient(LONG, SHORT, Direction.A_COVERS_B) == (LONG, SHORT, Direction.A_COVERS_B)
    # read the other way round: the input is still the covering side, the direction reads
    # from the input
    assert orient(SHORT, LONG, Direction.B_COVERS_A) == (LONG, SHORT, Direction.A_COVERS_B)


def test_equivalent_and_both_add_pairs_follow_algorithm_2():
    # SHORT has more proper nouns: Algorithm 2 makes it the input, whatever the order read
    for direction in (Direction.EQUIVALENT, Direction.BOTH_ADD):
        assert orient(LONG, SHORT, direction) == (SHORT, LONG, direction)
        assert orient(SHORT, LONG, direction) == (SHORT, LONG, direction)


def test_exact_rules_name_near_copies_and_conflicts_only():
    copy = sentence(3, "The Senate passed the budget resolution on Friday in a 51-50 vote, AP says.",
                    ["senate"])
    assert exact_rule(LONG, copy, max_copy_edits=2) == "near_copy"
    other_vote = sentence(4, "The upper chamber adopted the budget blueprint on Friday by 52-48.",
                          ["senate"])
    assert exact_rule(LONG, other_vote, max_copy_edits=2) == "number_conflict"
    assert exact_rule(LONG, SHORT, max_copy_edits=2) is None
