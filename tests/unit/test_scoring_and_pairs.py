from parawire.aligner import above_beta, normalized, order_pair
from parawire.aligner.candidates import Candidate
from parawire.aligner.pairs import make_pair
from parawire.indexer import Hit
from parawire.textnorm import length_ratio, token_jaccard, verbatim_key, word_diff
from tests.factories import make_sentence


def test_max_normalisation_is_relative_to_the_best_hit():
    hits = [Hit(1, 10.0), Hit(2, 7.5), Hit(3, 6.0)]
    scored = normalized(hits, "max")
    assert [round(s, 3) for _, s in scored] == [1.0, 0.75, 0.6]
    assert [h.sentence_id for h, _ in above_beta(scored, 0.7)] == [1, 2]


def test_self_normalisation_uses_the_reference_and_caps_at_one():
    scored = normalized([Hit(1, 12.0), Hit(2, 6.0)], "self", self_score=10.0)
    assert [s for _, s in scored] == [1.0, 0.6]
    assert [s for _, s in normalized([Hit(1, 3.0)], "self", self_score=0.0)] == [0.0]


def test_algorithm_2_puts_more_proper_nouns_first_and_breaks_ties_by_id():
    few = make_sentence(5, 1, ["a", "b", "c"], ["x", "y", "z"])
    many = make_sentence(9, 2, ["a", "b", "c", "d"], ["x", "y", "z"])
    assert order_pair(few, many) == (many, few)
    assert order_pair(many, few) == (many, few)
    twin = make_sentence(3, 3, ["a", "b", "c"], ["x", "y"])
    assert order_pair(few, twin) == order_pair(twin, few) == (twin, few)
    pair = make_pair(1, Candidate(few, many, "dense", 0.9, 4.2, story_id=7))
    assert (pair.input_sentence_id, pair.target_sentence_id) == (9, 5)
    assert (pair.shared_pn, pair.shared_cn) == (3, 3)
    assert (pair.score, pair.raw_score, pair.source, pair.story_id) == (0.9, 4.2, "dense", 7)


def test_text_measures():
    assert verbatim_key("The Mayor, said: yes!") == verbatim_key("the mayor said yes")
    assert token_jaccard("a b c d", "a b c e") == 3 / 5
    # AllSides (May 2013): two outlets' copies of one wire sentence, one word apart
    assert word_diff("Ramsey said he never suspected something was amiss.",
                     "Ramsey said he never suspected anything was amiss.") == (1, False)
    assert word_diff("About a year later, DeJesus vanished at age 14.",
                     "DeJesus disappeared at age 14 about a year later.") == (10, False)  # reordered
    assert word_diff("SEE ALSO: Israeli airstrikes on Syria put Obama at the crossroads",
                     "Israeli airstrikes on Syria put Obama at the crossroads") == (2, True)
    assert length_ratio("one two", "one two three four") == 0.5
