"""The generator metrics on hand-computed examples."""

from __future__ import annotations

import pytest

from parawire.trainer.generators.metrics import (
    DependencyTree,
    bow_iou,
    distinct_n,
    length_ratio,
    meteor,
    one_minus_bleu,
    pairwise,
    pinc,
    preservation,
    sentence_bleu,
    tree_edit_distance,
    type_token_ratio,
    wer,
)

SOURCE = ("The", "cat", "sat", "on", "the", "mat", ".")


def test_bleu_of_a_copy_and_of_nothing_shared():
    assert sentence_bleu(SOURCE, SOURCE) == pytest.approx(100)
    assert one_minus_bleu(SOURCE, [t.lower() for t in SOURCE]) == pytest.approx(0)  # casing ignored
    assert one_minus_bleu(("dogs", "run", "far", "away"), SOURCE) == pytest.approx(100, abs=1e-6)


def test_bag_of_words_intersection_over_union():
    # Words {the, cat, sat, on, mat} and {a, cat, lay, on, the, rug}: ∩ = {the, cat, on} (3),
    # ∪ = {the, cat, sat, on, mat, a, lay, rug} (8).
    assert bow_iou(SOURCE, ("A", "cat", "lay", "on", "the", "rug", "!")) == pytest.approx(3 / 8)
    assert bow_iou((".",), ("!",)) == 0.0


def test_pinc_by_hand():
    out = ("the", "cat", "lay", "on", "the", "mat")
    # Unigrams {the, cat, lay, on, mat}: lay new → 1/5. Bigrams (5 distinct): cat-lay, lay-on
    # new → 2/5. Trigrams (4): the-cat-lay, cat-lay-on, lay-on-the new → 3/4. 4-grams (3): all
    # contain "lay" → 3/3.
    assert pinc(out, SOURCE) == pytest.approx((1 / 5 + 2 / 5 + 3 / 4 + 1) / 4)
    assert pinc(SOURCE, SOURCE) == 0.0
    assert pinc(("cat",), SOURCE) == 0.0  # only unigrams count, and "cat" is in the source


def test_wer_and_length_ratio():
    # the cat sat on the mat → a cat sat on mat: one substitution, one deletion, over 6 words.
    out = ("a", "cat", "sat", "on", "mat")
    assert wer(out, SOURCE) == pytest.approx(2 / 6)
    assert length_ratio(out, SOURCE) == pytest.approx(5 / 6)


def test_diversity_among_outputs():
    outputs = [("a", "b", "c"), ("a", "b", "d")]
    # Bigrams: ab, bc, ab, bd → 3 distinct of 4. Words: a b c a b d → 4 distinct of 6.
    assert distinct_n(outputs, 2) == pytest.approx(3 / 4)
    assert type_token_ratio(outputs) == pytest.approx(4 / 6)
    assert pairwise(outputs, bow_iou) == pytest.approx(2 / 4)
    assert pairwise(outputs[:1], bow_iou) == 0.0


def test_preservation_counts_required_tokens():
    assert preservation(("Obama", "visited", "in", "2009"), {"obama", "2009", "berlin"}) == (2, 3)


def test_meteor_rewards_stems_without_wordnet():
    assert meteor(SOURCE, SOURCE) == pytest.approx(99.9, abs=0.1)
    exact = meteor(("the", "cat", "sits"), ("the", "cat", "sat"))
    stemmed = meteor(("the", "cats", "sat"), ("the", "cat", "sat"))
    assert stemmed > exact > 0


def test_tree_edit_distance_by_hand():
    # "cats sleep" (nsubj ← sleep) vs "the cats sleep" (det ← cats ← sleep): one inserted node.
    a = DependencyTree(heads=(1, 1), labels=("nsubj", "root"))
    b = DependencyTree(heads=(1, 2, 2), labels=("det", "nsubj", "root"))
    assert tree_edit_distance(a, b) == 1
    assert tree_edit_distance(a, a) == 0
    # Relabel one node: nsubj → obj.
    assert tree_edit_distance(a, DependencyTree((1, 1), ("obj", "root"))) == 1
