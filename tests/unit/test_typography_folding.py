"""Stored text keeps the publisher's typography; every comparison of texts sees through it:
copies that differ only in quotes, apostrophes, dashes, guillemets or ellipses share their
dedup keys, SimHash, near-copy verdict and name words."""

from __future__ import annotations

import spacy

from parawire.aligner.pair_features import edit_share, longest_run_share
from parawire.crawler.dedup import simhash
from parawire.nlp.entities import name_words
from parawire.textnorm import (
    content_hash,
    fold_typography,
    token_jaccard,
    verbatim_key,
    word_diff,
)

CURLY = ("\u201eDas bleibt so\u201c, sagte O\u2019Brien \u2014 \u00abnous restons\u00bb\u2026 "
         "The council\u2019s members approved the budget on Monday after a long debate about "
         "roads, schools and the \u2018new\u2019 taxes \u2013 20\u201330 per cent.")
PLAIN = ('"Das bleibt so", sagte O\'Brien - "nous restons"... '
         "The council's members approved the budget on Monday after a long debate about "
         "roads, schools and the 'new' taxes - 20-30 per cent.")


def test_folding_makes_the_typographic_variants_plain():
    assert fold_typography(CURLY) == PLAIN
    assert fold_typography(PLAIN) == PLAIN


def test_dedup_keys_and_simhash_match_copies_differing_only_in_typography():
    assert content_hash(CURLY) == content_hash(PLAIN)
    assert verbatim_key(CURLY) == verbatim_key(PLAIN)
    assert simhash(CURLY) == simhash(PLAIN)


def test_near_copy_checks_match_copies_differing_only_in_typography():
    assert token_jaccard(CURLY, PLAIN) == 1.0
    assert word_diff(CURLY, PLAIN).edits == 0
    assert edit_share(CURLY, PLAIN) == 0.0 and longest_run_share(CURLY, PLAIN) == 1.0


def test_names_match_whatever_their_apostrophes_and_dashes():
    nlp = spacy.blank("en")
    assert name_words(nlp("Conan O\u2019Brien\u2019s")) == name_words(nlp("Conan O'Brien's")) \
        == ["conan", "o'brien"]
    assert name_words(nlp("Al\u2013Ghozi")) == name_words(nlp("Al-Ghozi")) == ["al", "ghozi"]
