"""The generator layer's pure parts against brute force and hand-worked examples: constraint
sets, farthest-first initialisation, k-means under token edit distance, selection, casing."""

from __future__ import annotations

import itertools
import random

import pytest

from parawire.records import Sentence
from parawire.trainer.corpus import tokenize
from parawire.trainer.generators import Source
from parawire.trainer.generators.casing import restore_case
from parawire.trainer.generators.clustering import (
    assign,
    distance_matrix,
    distance_tokens,
    farthest_first,
    kmeans,
    medoid,
    token_distance,
)
from parawire.trainer.generators.constraints import constraint_sets, content_tokens
from parawire.trainer.generators.selection import below, best_per_cluster, first_of_each, quantile

SOURCE = Source.from_text("Apple sold 3.5 million phones in Berlin, the company said on Monday.")


def test_source_from_text_finds_numbers_and_capitalised_names():
    assert SOURCE.numbers == {"3.5"}
    assert SOURCE.proper_nouns == {"berlin", "monday"}  # "Apple" opens the sentence
    annotated = Source.from_text(SOURCE.text, proper_nouns=["Apple", "Berlin"])
    assert annotated.proper_nouns == {"apple", "berlin"}
    assert SOURCE.model_tokens == tokenize(SOURCE.text)


def test_source_from_annotated_sentences_keeps_names_that_are_tokens():
    text = "Yucaipa owned Dominick's before selling it to Safeway in 1998 on Monday."
    sentence = Sentence(article_id=1, position=0, text=text,
                        entities=[("Yucaipa", "ORG"), ("Dominick's", "ORG"), ("1998", "DATE"),
                                  ("Monday", "DATE")],
                        proper_nouns=["yucaipa", "dominick", "safeway"])
    source = Source.from_sentences(text, [sentence])
    # "dominick" is a lemma, not a token; dates are not names; numbers are kept apart.
    assert source.proper_nouns == {"yucaipa", "dominick's", "safeway"}
    assert source.numbers == {"1998"}


def test_content_tokens_never_offer_names_numbers_punctuation_or_short_words():
    assert content_tokens(SOURCE) == ["apple", "sold", "million", "phones", "company", "said"]


def test_constraint_sets_are_subsets_of_the_fraction_size_and_seeded():
    tokens = content_tokens(SOURCE)
    sets = constraint_sets(tokens, 5, 0.3, random.Random(4))
    assert len(sets) == 5 and all(len(s) == 2 and s <= set(tokens) for s in sets)
    assert sets == constraint_sets(tokens, 5, 0.3, random.Random(4))
    assert constraint_sets(tokens, 2, 0.0, random.Random(4)) == [frozenset(), frozenset()]
    assert constraint_sets(["only"], 1, 0.1, random.Random(4)) == [frozenset({"only"})]


def test_token_distance_counts_whole_word_edits_after_normalisation():
    a = distance_tokens(("The", "mayor", "met", "the", "council", "."))
    b = distance_tokens(("the", "Mayor", "saw", "council", "members", "!"))
    assert a == ("the", "mayor", "met", "the", "council")
    # met→saw, delete "the", insert "members": 3 word edits.
    assert token_distance(a, b) == 3


def _random_points(rng: random.Random, count: int) -> list[tuple[str, ...]]:
    words = ["a", "b", "c", "d"]
    return [tuple(rng.choices(words, k=rng.randint(1, 5))) for _ in range(count)]


def _brute_farthest_first(d, fixed, k):
    centres = [fixed]
    while len(centres) < min(k, len(d)):
        gaps = [min(d[i][c] for c in centres) for i in range(len(d))]
        best = max(gaps)
        if best == 0:
            break
        centres.append(gaps.index(best))
    return centres


@pytest.mark.parametrize("seed", range(20))
def test_farthest_first_against_brute_force(seed):
    rng = random.Random(seed)
    d = distance_matrix(_random_points(rng, rng.randint(2, 9)))
    k = rng.randint(1, 5)
    assert farthest_first(d, 0, k) == _brute_farthest_first(d, 0, k)


def test_farthest_first_on_a_hand_worked_line():
    # Points on a line at 0, 1, 5, 9, 10: from 0 the farthest is 10, then 5 (4 from 1 and 9).
    positions = [0, 1, 5, 9, 10]
    d = [[abs(a - b) for b in positions] for a in positions]
    assert farthest_first(d, 0, 3) == [0, 4, 2]


@pytest.mark.parametrize("seed", range(20))
def test_assignment_and_medoid_against_brute_force(seed):
    rng = random.Random(seed)
    d = distance_matrix(_random_points(rng, 8))
    centres = rng.sample(range(8), 3)
    labels = assign(d, centres)
    for point, label in enumerate(labels):
        assert d[point][centres[label]] == min(d[point][c] for c in centres)
    members = [i for i in range(8) if labels[i] == labels[0]]
    best = medoid(d, members)
    assert sum(d[best][m] for m in members) == min(sum(d[x][m] for m in members) for x in members)


def _cost(d, centres):
    return sum(min(d[i][c] for c in centres) for i in range(len(d)))


@pytest.mark.parametrize("seed", range(15))
def test_kmeans_is_a_fixed_point_with_the_input_centre_kept(seed):
    rng = random.Random(seed)
    d = distance_matrix(_random_points(rng, 10))
    result = kmeans(d, fixed=0, k=4, iterations=50)
    assert result.centres[0] == 0 and result.labels[0] == 0
    assert list(result.labels) == assign(d, result.centres)
    for cluster in range(1, len(result.centres)):
        members = result.members(cluster)
        cost = sum(d[result.centres[cluster]][m] for m in members)
        assert cost == min(sum(d[x][m] for m in members) for x in members)


def test_kmeans_finds_the_brute_force_optimum_on_separated_groups():
    groups = [("x", "y", "z"), ("x", "y", "w"),                    # near the input
              ("a", "b", "c", "d", "e"), ("a", "b", "c", "d", "f"),
              ("p", "q"), ("p", "r"), ("p", "q", "r")]
    d = distance_matrix([("x", "y", "z", "z"), *groups])
    result = kmeans(d, fixed=0, k=3, iterations=20)
    best = min(_cost(d, [0, *pair]) for pair in itertools.combinations(range(1, len(d)), 2))
    assert _cost(d, result.centres) == best
    assert result.labels[1:3] == (0, 0)  # the near copies join the input's cluster


def test_selection_helpers():
    assert first_of_each("abcab", ["a", "b", "c", "a", "b"]) == [0, 1, 2]
    assert quantile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5
    assert quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.9) == pytest.approx(4.6)
    assert below([1.0, 5.0, 3.0], 3.0) == [0, 2]
    # Clusters 0 (skipped), 1 and 2: best of 1 is index 3 (0.5), best of 2 is index 2 (0.7).
    assert best_per_cluster([0, 1, 2, 1, 2], [0.1, 0.9, 0.7, 0.5, 0.8], frozenset({0})) == [3, 2]


def test_casing_comes_back_from_the_source():
    source = Source.from_text("The mayor of Berlin met NATO officials on Monday.",
                              proper_nouns=["Berlin", "NATO", "Monday"])
    out = restore_case(("on", "monday", ",", "the", "mayor", "of", "berlin", "met", "nato", "staff"),
                       source)
    assert out == ("On", "Monday", ",", "the", "mayor", "of", "Berlin", "met", "NATO", "staff")
