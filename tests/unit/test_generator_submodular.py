"""DiPS's objective: every term monotone with diminishing returns, and the greedy choice within
(1 − 1/e) of the best subset found by brute force."""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from parawire.trainer.generators.submodular import (
    Objective,
    edit_similarity,
    greedy,
    ngram_set,
    overlap_with,
)

WORDS = st.sampled_from(["a", "b", "c", "d", "e", "f"])
ITEMS = st.lists(st.lists(WORDS, min_size=1, max_size=5), min_size=2, max_size=7)
VECTOR = st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3)
TERMS = ["overlap", "embedding", "distinct", "coverage"]


@st.composite
def objectives(draw: st.DrawFn) -> Objective:
    items = draw(ITEMS)
    vectors = [draw(VECTOR) for _ in items]
    return Objective.build(items, draw(st.lists(WORDS, min_size=1, max_size=6)), vectors, draw(VECTOR),
                           draw(st.floats(0, 1)), k=draw(st.integers(1, 3)))


@st.composite
def nested(draw: st.DrawFn) -> tuple[Objective, list[int], list[int], int]:
    """An objective, A ⊆ B and an item x outside B."""
    objective = draw(objectives())
    order = draw(st.permutations(range(objective.size)))
    b_size = draw(st.integers(0, objective.size - 1))
    a_size = draw(st.integers(0, b_size))
    return objective, list(order[:a_size]), list(order[:b_size]), order[b_size]


@settings(max_examples=150, deadline=None)
@given(nested())
def test_each_term_is_monotone_with_diminishing_returns(case):
    objective, a, b, x = case
    for term in TERMS:
        def f(chosen, term=term):
            return objective.terms(chosen)[term]
        assert f([*b, x]) >= f(b) - 1e-12, term
        assert f([*a, x]) - f(a) >= f([*b, x]) - f(b) - 1e-9, term
        if len(b) <= objective.k:  # normalised for subsets within the budget
            assert 0 <= f(b) <= 1 + 1e-9, term


@settings(max_examples=100, deadline=None)
@given(objectives(), st.integers(1, 3))
def test_greedy_reaches_one_minus_one_over_e_of_the_optimum(objective, k):
    best = max(objective.value(list(s)) for r in range(k + 1)
               for s in itertools.combinations(range(objective.size), r))
    chosen = greedy(objective, k)
    assert len(chosen) == min(k, objective.size) and len(set(chosen)) == len(chosen)
    assert objective.value(chosen) >= (1 - 1 / math.e) * best - 1e-9


def test_hand_computed_terms():
    source = ["the", "mayor", "met", "the", "council"]
    assert overlap_with(["the", "mayor", "spoke"], source, 2) == (2 / 3 + 1 / 2) / 2
    assert ngram_set(["a", "b", "a"], 2) == {("a",), ("b",), ("a", "b"), ("b", "a")}
    assert edit_similarity(["a", "b", "c"], ["a", "x", "c"]) == 1 - 1 / 3
    objective = Objective.build([["a", "b"], ["a", "b"], ["c", "d"]], ["a", "b"],
                                [[1, 0], [1, 0], [0, 1]], [1, 0], weight=0.0, k=2, max_n=1)
    # λ = 0: pure diversity; after the first item the copy of it adds nothing, "c d" adds all.
    assert sorted(greedy(objective, 2)) == [0, 2]
    fidelity_only = Objective.build([["a", "b"], ["c", "d"]], ["a", "b"], [[1, 0], [0, 1]], [1, 0],
                                    weight=1.0, k=1, max_n=1)
    assert greedy(fidelity_only, 1) == [0]
    assert fidelity_only.terms([0]) == {"overlap": 1.0, "embedding": 1.0, "distinct": 0.5,
                                        "coverage": 0.5}
