"""The Kneser-Ney language model: each conditional distribution sums to one (seen and unseen
contexts, unknown words), and a seen word order is more probable than a scrambled one."""

from __future__ import annotations

import pytest

from parawire.trainer.generators.lm import EOS, UNK, KneserNey

SENTENCES = [s.split() for s in ["the mayor met the council", "the council met the mayor today",
                                 "officials met in town", "the mayor said today"]]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("context", [[], ["the"], ["the", "mayor"], ["zebra", "met"], ["met", "the"]])
def test_every_distribution_sums_to_one(order, context):
    lm = KneserNey(SENTENCES, order)
    assert sum(lm.probability(w, context) for w in lm.vocab) == pytest.approx(1.0)
    assert {UNK, EOS} <= lm.vocab and lm.probability("zebra", context) == lm.probability(UNK, context)


def test_hand_computed_bigram():
    lm = KneserNey([["a", "b"], ["a", "c"]], order=2, discount=0.5)
    # vocab {a, b, c, </s>, <unk>}; continuation counts: a 1 (<s> a), b 1, c 1, </s> 2 — of 5.
    unigram_b = (1 - 0.5) / 5 + 0.5 * 4 / 5 / 5
    assert lm.probability("b", ["a"]) == pytest.approx((1 - 0.5) / 2 + 0.5 * 2 / 2 * unigram_b)


def test_a_seen_order_is_more_fluent_than_a_scrambled_one():
    lm = KneserNey(SENTENCES, 3)
    assert lm.log_perplexity(["the", "mayor", "met", "the", "council"]) < \
        lm.log_perplexity(["council", "the", "the", "met", "mayor"])
