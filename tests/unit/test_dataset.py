from hypothesis import given
from hypothesis import strategies as st

from parawire.aligner import DatasetOptions, build_dataset
from parawire.records import Pair, PairRow
from tests.factories import make_sentence


def rows_for(edges: list[tuple[int, int, float]]) -> list[PairRow]:
    rows = []
    for a, b, score in edges:
        sa = make_sentence(a, a, ["x"], ["y"], source=f"outlet-{a % 3}")
        sb = make_sentence(b, b, ["x"], ["y"], source=f"outlet-{b % 3}")
        rows.append(PairRow(Pair(1, a, b, score, score * 10, 1, 1), sa, sb))
    return rows


def sentence_ids(examples):
    return {s.id for e in examples for s in (e.source_side, e.target_side)}


edges = st.lists(st.tuples(st.integers(1, 40), st.integers(41, 80),
                           st.floats(0.7, 1.0)), min_size=1, max_size=60,
                 unique_by=lambda e: (e[0], e[1]))


@given(edges=edges, seed=st.integers(0, 5), one=st.booleans())
def test_no_sentence_is_in_two_splits_and_splits_are_deterministic(edges, seed, one):
    options = DatasetOptions(one_target_per_input=one, flipped=False, seed=seed)
    splits, _ = build_dataset(rows_for(edges), options)
    ids = {name: sentence_ids(items) for name, items in splits.items()}
    assert not ids["train"] & ids["valid"]
    assert not ids["train"] & ids["test"]
    assert not ids["valid"] & ids["test"]
    again, _ = build_dataset(rows_for(edges), options)
    assert {k: [e.row.pair for e in v] for k, v in again.items()} == \
        {k: [e.row.pair for e in v] for k, v in splits.items()}


def test_one_target_per_input_keeps_the_best_and_flipped_doubles():
    rows = rows_for([(1, 50, 0.8), (1, 51, 0.95), (2, 52, 0.9)])
    splits, counts = build_dataset(rows, DatasetOptions(flipped=True, ratios=(1.0, 0.0, 0.0)))
    train = splits["train"]
    kept = sorted((e.row.pair.input_sentence_id, e.row.pair.target_sentence_id)
                  for e in train if not e.flipped)
    assert kept == [(1, 51), (2, 52)]
    assert counts["extra_targets"] == 1 and counts["flipped_copies"] == 2
    flipped = [e for e in train if e.flipped]
    assert {(e.source_side.id, e.target_side.id) for e in flipped} == {(51, 1), (52, 2)}


def test_ratios_are_roughly_followed_with_many_groups():
    rows = rows_for([(i, 100 + i, 0.9) for i in range(1, 101)])
    splits, _ = build_dataset(rows, DatasetOptions(flipped=False))
    assert [len(splits[name]) for name in ("train", "valid", "test")] == [80, 10, 10]


def credit_row(a: int, b: int, text_a: str, text_b: str, score: float) -> PairRow:
    sa = make_sentence(a, a, ["Associated Press"], ["report"], text=text_a)
    sb = make_sentence(b, b, ["Associated Press"], ["report"], text=text_b)
    return PairRow(Pair(1, a, b, score, score * 10, 1, 1), sa, sb)


def test_a_text_pair_repeated_by_copies_of_a_wire_story_is_kept_once():
    credit = "This report includes material from the Associated Press."
    contributed = "The Associated Press contributed to this report."
    rows = [
        credit_row(1, 50, credit, contributed, 0.8),
        # the same two texts from other copies, in the other order, case and punctuation apart
        credit_row(51, 2, "The Associated Press contributed to this report",
                   "this report includes material from the Associated Press.", 0.9),
        credit_row(3, 52, credit, "  The Associated Press contributed to this report! ", 0.7),
        credit_row(4, 53, "Comey gave the memos to the Justice Department.",
                   "Comey handed the memos over to federal investigators.", 0.85),
    ]
    splits, counts = build_dataset(rows, DatasetOptions(one_target_per_input=False, flipped=False,
                                                        ratios=(1.0, 0.0, 0.0)))
    kept = sorted((e.row.pair.input_sentence_id, e.row.pair.target_sentence_id)
                  for e in splits["train"])
    assert kept == [(4, 53), (51, 2)]  # the best-scored copy of the credit line, and the other pair
    assert counts["repeated_text_pairs"] == 2


def graded_rows(specs: list[tuple[int, str, dict[str, float]]],
                target_text: str = "") -> list[PairRow]:
    """Rows of distinct sentences, each pair with a grade, a direction and features (each
    target of `target_text`, or of eleven words)."""
    rows = []
    for k, (grade, direction, features) in enumerate(specs):
        a, b = 2 * k + 1, 2 * k + 2
        pair = Pair(1, a, b, 0.9, 9.0, 1, 1, probability=0.8,
                    features={"bleu_divergence": 0.6, "quote_share": 0.0, **features},
                    grade=grade, direction=direction)
        target = target_text or f"Sentence {b} of the story says the council approved the budget."
        rows.append(PairRow(pair, make_sentence(a, a, ["x"], ["y"]),
                            make_sentence(b, b, ["x"], ["y"], text=target)))
    return rows


ALL_TRAIN = {"ratios": (1.0, 0.0, 0.0), "one_target_per_input": False}


def test_useful_pairs_by_default_and_each_drop_counted():
    rows = graded_rows([
        (5, "equivalent", {}), (4, "equivalent", {}), (3, "a_covers_b", {}),
        (2, "both_add", {}), (1, "both_add", {}),
        (4, "equivalent", {"bleu_divergence": 0.05}),  # a near copy
        (4, "equivalent", {"quote_share": 0.5}),  # the same quotation on both sides
    ])
    splits, counts = build_dataset(rows, DatasetOptions(flipped=True, **ALL_TRAIN))
    mined = [e for e in splits["train"] if not e.flipped]
    assert sorted(e.row.pair.grade for e in mined) == [3, 4, 5]
    assert counts["below_grade"] == 2 and counts["divergence"] == 1
    assert counts["quote_derived"] == 1
    # a grade-3 pair is never flipped: its target would add facts to its input
    assert {e.row.pair.grade for e in splits["train"] if e.flipped} == {4, 5}


def test_min_grade_directional_band_and_quotes_are_options():
    rows = graded_rows([(3, "a_covers_b", {}), (2, "both_add", {}),
                        (4, "equivalent", {"quote_share": 0.5}),
                        (4, "equivalent", {"bleu_divergence": 0.05})])
    loose = DatasetOptions(flipped=True, min_grade=2, directional=False, min_divergence=0.0,
                           quote_pairs=True, **ALL_TRAIN)
    splits, counts = build_dataset(rows, loose)
    assert len([e for e in splits["train"] if not e.flipped]) == 4
    assert counts["flipped_copies"] == 4  # the grade-3 pair flipped too
    only_equivalent, _ = build_dataset(rows, DatasetOptions(min_grade=4, min_divergence=0.0,
                                                            quote_pairs=True, **ALL_TRAIN))
    assert {e.row.pair.grade for e in only_equivalent["train"]} == {4}


def test_a_probability_floor_leaves_out_the_less_probable_pairs():
    rows = graded_rows([(3, "a_covers_b", {}), (4, "equivalent", {})])  # P(grade >= 3) 0.8
    for floor, kept in ((0.0, 2), (0.8, 2), (0.81, 0)):
        splits, counts = build_dataset(rows, DatasetOptions(min_probability=floor, flipped=False,
                                                            **ALL_TRAIN))
        assert len(splits["train"]) == kept and counts["below_probability"] == 2 - kept


def test_a_short_target_is_left_out_unless_asked_for():
    # AllSides (July 2020): a long sentence of the story seems to cover any short one
    rows = graded_rows([(3, "a_covers_b", {})],
                       target_text="Taylor died when police returned fire.")
    splits, counts = build_dataset(rows, DatasetOptions(**ALL_TRAIN))
    assert splits["train"] == [] and counts["short_target"] == 1
    splits, counts = build_dataset(rows, DatasetOptions(min_target_words=6, **ALL_TRAIN))
    assert len(splits["train"]) == 1 and counts["short_target"] == 0


def test_a_target_that_several_inputs_seem_to_cover_keeps_the_most_probable_one():
    # AllSides (April 2020): "The Biden camp has denied Reade's allegations." was the target
    # of three inputs, none of which states it
    target = make_sentence(9, 9, ["x"], ["y"], text="The Biden camp has denied Reade's "
                                                   "allegations about the senator.")
    rows = []
    for input_id, probability in ((1, 0.55), (2, 0.8), (3, 0.6)):
        pair = Pair(1, input_id, 9, 0.9, 9.0, 1, 1, probability=probability,
                    features={"bleu_divergence": 0.6, "quote_share": 0.0},
                    grade=3, direction="a_covers_b")
        rows.append(PairRow(pair, make_sentence(input_id, input_id, ["x"], ["y"]), target))
    splits, counts = build_dataset(rows, DatasetOptions(**ALL_TRAIN))
    assert [e.row.pair.input_sentence_id for e in splits["train"]] == [2]
    assert counts["extra_inputs"] == 2
    splits, counts = build_dataset(rows, DatasetOptions(one_input_per_target=False, **ALL_TRAIN))
    assert len(splits["train"]) == 3 and counts["extra_inputs"] == 0


def test_ungraded_pairs_of_older_runs_export_as_before():
    rows = rows_for([(1, 50, 0.8)])
    splits, _ = build_dataset(rows, DatasetOptions(flipped=False, ratios=(1.0, 0.0, 0.0)))
    assert len(splits["train"]) == 1


def test_a_target_the_input_states_too_little_of_is_left_out_unless_asked_for():
    # AllSides (July 2020): "Trump tweeted after signing the order Friday." under a long
    # sentence on the Rose Garden signing that states 0.6 of its content words, not the tweet
    rows = graded_rows([(3, "a_covers_b", {"cover_share_b": 0.9}),
                        (3, "a_covers_b", {"cover_share_b": 0.6}),
                        (4, "equivalent", {})])  # a run whose pairs lack the feature
    splits, counts = build_dataset(rows, DatasetOptions(flipped=False, **ALL_TRAIN))
    kept = {e.row.pair.features.get("cover_share_b") for e in splits["train"]}
    assert kept == {0.9, None} and counts["uncovered_target"] == 1
    splits, counts = build_dataset(rows, DatasetOptions(min_target_coverage=0.0, flipped=False,
                                                        **ALL_TRAIN))
    assert len(splits["train"]) == 3 and counts["uncovered_target"] == 0


def test_a_flipped_copy_needs_its_new_target_covered_too():
    # an equivalent pair whose target states only half of the input's content words: read
    # forwards the target adds nothing, read backwards it would
    rows = graded_rows([(4, "equivalent", {"cover_share_b": 0.9, "cover_share_a": 0.5}),
                        (4, "equivalent", {"cover_share_b": 0.9, "cover_share_a": 0.8})])
    splits, counts = build_dataset(rows, DatasetOptions(flipped=True, **ALL_TRAIN))
    flipped = [e.row.pair.features["cover_share_a"] for e in splits["train"] if e.flipped]
    assert flipped == [0.8] and counts["flipped_copies"] == 1
    splits, counts = build_dataset(rows, DatasetOptions(flipped=True, min_target_coverage=0.0,
                                                        **ALL_TRAIN))
    assert counts["flipped_copies"] == 2
