"""Pair signals and the filters for pairs that teach nothing, on real MSRP (train) sentences."""

from __future__ import annotations

from parawire.aligner.filters import drop_reason, near_verbatim
from parawire.aligner.signals import SIGNALS, numbers, pair_signals, quoted_words
from parawire.records import Sentence
from parawire.textnorm import words

DEFAULTS = {"max_quote_share": 0.3, "max_novel_share": 0.6, "max_added_words": 2,
            "drop_mismatches": True}


def sentence(text: str, keys: list[str], dates: list[str] = ()) -> Sentence:
    return Sentence(article_id=1, position=0, text=text, tokens=text.split(),
                    entity_keys=keys, common_nouns=[w for w in words(text) if len(w) > 6],
                    entities=[(d, "DATE") for d in dates])


GHOZI_QUOTE = sentence('"The death of al-Ghozi signals that terrorists will never get far in '
                       'the Philippines," Arroyo said in a statement on Monday.',
                       ["arroyo", "ghozi", "philippines"], ["Monday"])
GHOZI_QUOTE_2 = sentence('"The death of Ghozi signals that terrorists will never get far in the '
                         'Philippines," President Gloria Arroyo said.',
                         ["arroyo", "ghozi", "philippines"])
GRAHAM_RAISED = sentence("Sen. Bob Graham, Florida Democrat, raised $2 million after getting a "
                         "late start.", ["florida", "graham"])
GRAHAM_ON_HAND = sentence("Further back, Sen. Bob Graham of Florida reported about $1.7 million "
                          "on hand.", ["florida", "graham"])
GHOZI_SHORT = sentence("A demolitions expert for JI, al-Ghozi was arrested in Manila in January "
                       "2002.", ["ghozi", "ji", "manila"], ["January 2002"])
GHOZI_LONG = sentence("Al-Ghozi was arrested in Manila in January 2002 while on a mission to buy "
                      "explosives for bombing targets in Singapore.",
                      ["ghozi", "manila", "singapore"], ["January 2002"])
DOTSON_MONDAY = sentence("Dotson was arrested Monday in his native Maryland and charged with "
                         "murder.", ["dotson", "maryland"], ["Monday"])
DOTSON_FRIDAY = sentence("Dotson was arrested Friday in his native Maryland and charged with "
                         "the murder.", ["dotson", "maryland"], ["Friday"])


def _signals(a: Sentence, b: Sentence) -> dict[str, float]:
    return pair_signals(a, b, bm25=0.8, cosine=0.9)


def test_every_signal_is_computed_in_order():
    signals = _signals(GRAHAM_RAISED, GRAHAM_ON_HAND)
    assert tuple(signals) == SIGNALS
    assert signals["pn_shared"] == 2 and signals["pn_min_ratio"] == 1.0
    assert signals["number_mismatch"] == 2  # "2" and "1.7"; "million" both state


def test_figures_and_quotations_are_read_from_the_text():
    assert numbers(GRAHAM_RAISED) == {"2", "million"}
    assert numbers(GRAHAM_ON_HAND) == {"1.7", "million"}
    assert {"death", "ghozi", "philippines"} <= quoted_words(GHOZI_QUOTE_2.text)
    assert "arroyo" not in quoted_words(GHOZI_QUOTE_2.text)


def test_the_same_quotation_under_another_attribution_is_a_quote_copy():
    signals = _signals(GHOZI_QUOTE, GHOZI_QUOTE_2)
    assert signals["quote_share"] >= 0.6
    assert drop_reason(GHOZI_QUOTE, GHOZI_QUOTE_2, signals, **DEFAULTS) == "quote_copy"


def test_different_figures_are_a_number_mismatch():
    signals = _signals(GRAHAM_RAISED, GRAHAM_ON_HAND)
    assert drop_reason(GRAHAM_RAISED, GRAHAM_ON_HAND, signals, **DEFAULTS) == "number_mismatch"
    # without the mismatch filter it is still caught: each side says what the other does not
    assert drop_reason(GRAHAM_RAISED, GRAHAM_ON_HAND, signals,
                       **{**DEFAULTS, "drop_mismatches": False}) == "partial"


def test_different_days_are_a_date_mismatch():
    signals = _signals(DOTSON_MONDAY, DOTSON_FRIDAY)
    assert drop_reason(DOTSON_MONDAY, DOTSON_FRIDAY, signals, **DEFAULTS) == "date_mismatch"
    last_monday = sentence(DOTSON_FRIDAY.text.replace("Friday", "last Monday"),
                           ["dotson", "maryland"], ["last Monday"])
    assert drop_reason(DOTSON_MONDAY, last_monday, _signals(DOTSON_MONDAY, last_monday),
                       **DEFAULTS) is None


def test_a_side_that_adds_a_clause_is_a_partial_pair():
    signals = _signals(GHOZI_SHORT, GHOZI_LONG)
    assert 0.4 < signals["novel_max"] < 0.6
    loose = {**DEFAULTS, "drop_mismatches": False, "max_added_words": 100}
    assert drop_reason(GHOZI_SHORT, GHOZI_LONG, signals,
                       **{**loose, "max_novel_share": 0.4}) == "partial"
    assert drop_reason(GHOZI_SHORT, GHOZI_LONG, signals, **loose) is None
    # at the defaults: the long side's clause outweighs the short side's own words
    assert drop_reason(GHOZI_SHORT, GHOZI_LONG, signals,
                       **{**DEFAULTS, "drop_mismatches": False}) == "partial"


def test_a_side_that_repeats_the_other_and_adds_to_it_is_a_partial_pair():
    # AllSides (May 2013): the richer side is the other's statement plus a clause
    admitted = sentence("The IRS admitted Friday that some auditors gave heightened scrutiny to "
                        "applications for tax-exempt status from tea party and other "
                        "conservative groups during the 2012 election season.", ["irs"])
    jumped = sentence("Republicans quickly jumped on the IRS after the agency admitted Friday "
                      "that some auditors gave heightened scrutiny to applications for "
                      "tax-exempt status from tea party and other conservative groups during "
                      "the 2012 election season under Mr. Shulman.", ["irs", "shulman"])
    signals = _signals(admitted, jumped)
    assert signals["novel_max"] < 0.6  # not partial by the share of missing words alone
    no_mismatch = {**DEFAULTS, "drop_mismatches": False}
    assert drop_reason(admitted, jumped, signals, **no_mismatch) == "partial"
    assert drop_reason(admitted, jumped, signals, **{**no_mismatch, "max_added_words": 20}) is None
    # both sides reword: neither merely adds to the other
    passes = sentence("Internet sales tax passes Senate", ["senate"])
    approves = sentence("Senate approves online sales tax.", ["senate"])
    assert drop_reason(passes, approves, _signals(passes, approves), **DEFAULTS) is None


def test_names_the_sides_do_not_share_are_an_entity_mismatch():
    signals = _signals(GRAHAM_RAISED, DOTSON_MONDAY)
    assert drop_reason(GRAHAM_RAISED, DOTSON_MONDAY, signals, **DEFAULTS) == "entity_mismatch"
    # "ji" against "singapore", but both name al-Ghozi and Manila (partial, not a mismatch)
    assert drop_reason(GHOZI_SHORT, GHOZI_LONG, _signals(GHOZI_SHORT, GHOZI_LONG),
                       **DEFAULTS) == "partial"


def test_a_true_paraphrase_is_kept():
    a = sentence("He was listed last night in critical but stable condition at Kings County "
                 "Hospital Center, police said.", ["kings county hospital center"])
    b = sentence("Police said he was in critical but stable condition last night at Kings "
                 "County Hospital Center.", ["kings county hospital center"])
    assert drop_reason(a, b, _signals(a, b), **DEFAULTS) is None


def test_a_quotation_cut_by_the_segmenter_still_counts():
    # AllSides (October 2014): one outlet's sentence starts inside the quotation
    a = sentence("We're aware of that and we think that overall the policy of getting to close "
                 "Guantanamo is clearly in the interest of the United States, as the president "
                 'has articulated," Defense Secretary Chuck Hagel said.',
                 ["guantanamo", "hagel", "united states"])
    b = sentence('"We think that overall the policy of getting to close Guantanamo is clearly in '
                 'the interest of the United States, as the president has articulated," Hagel '
                 "said.", ["guantanamo", "hagel", "united states"])
    assert "hagel" not in quoted_words(a.text) and "guantanamo" in quoted_words(a.text)
    assert drop_reason(a, b, _signals(a, b), **DEFAULTS) == "quote_copy"
    # a sentence that quotes what the other says without quotation marks
    c = sentence("The survey found that conservatives are \"tightly clustered around a single "
                 "news source, far more than any other group in the survey.\"", [])
    d = sentence("Conservatives are tightly clustered around a single news source, far more "
                 "than any other group in the survey.", [])
    assert drop_reason(c, d, _signals(c, d), **DEFAULTS) == "quote_copy"


NEAR_VERBATIM = {"max_token_jaccard": 0.9, "min_word_edits": 3, "min_edit_share": 0.2}


def test_a_short_rewording_is_a_paraphrase_not_a_near_verbatim_copy():
    # three words replaced in an eight-word sentence (an absolute four-edit rule dropped it)
    assert not near_verbatim("Comey gave the memos to the Justice Department.",
                             "Comey gave the memos to federal investigators.", **NEAR_VERBATIM)
    # MSRP train: "challenge" against "change", the attribution gone (12 words)
    assert not near_verbatim(
        'We need to challenge old habits and seriously rethink business-as-usual," he wrote.',
        '"We need to change old habits and seriously rethink business-as-usual."',
        **NEAR_VERBATIM)


def test_a_copy_edit_of_a_long_sentence_is_near_verbatim():
    # MSRP train: four words edited in a 25-word sentence
    assert near_verbatim(
        "That state will not emerge until the interim government decides on a process for "
        "writing a new constitution and for holding the first democratic elections.",
        "That state will not emerge until the interim government decides on a process to "
        "write a new constitution and to hold the first democratic elections.",
        **NEAR_VERBATIM)
    # a contraction alone stays near-verbatim in a short sentence (two edits, under the floor)
    assert near_verbatim("He did not say when the talks would resume.",
                         "He didn't say when the talks would resume.", **NEAR_VERBATIM)
    # ... and the same texts pass once the floor and the share are off
    assert not near_verbatim("He did not say when the talks would resume.",
                             "He didn't say when the talks would resume.",
                             max_token_jaccard=0.9, min_word_edits=0, min_edit_share=0.0)


def test_a_sentence_with_words_only_added_is_near_verbatim_however_many():
    # no word is reworded: one side adds a name (3 edits in a 5-word sentence)
    assert near_verbatim("Anna Palmer and Katie Glueck contributed to this report.",
                         "Katie Glueck contributed to this report.", **NEAR_VERBATIM)
    # MSRP train: the same quotation, one side adds its attribution (8 words)
    assert near_verbatim(
        "I would like to publicly thank Sir Alex Ferguson for making me the player I am "
        'today."', "I would like to publicly thank Sir Alex Ferguson for making me the player "
        "I am today, Beckham said in the statement.", **NEAR_VERBATIM)
