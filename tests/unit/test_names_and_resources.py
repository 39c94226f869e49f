"""Proper-noun units from PROPN runs and name relations, and the per-language word lists."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

from parawire.errors import ParawireError
from parawire.nlp.features import proper_nouns
from parawire.nlp.resources import LanguageResources, language_resources


def _doc(lang: str, rows: list[tuple[str, str, int, str]]) -> Doc:
    """A parsed Doc from (word, UPOS, head index, relation) rows, as a UD pipeline makes it."""
    words = [w for w, _, _, _ in rows]
    spaces = [not w.endswith("'") for w in words]
    return Doc(spacy.blank(lang).vocab, words=words, spaces=spaces, pos=[p for _, p, _, _ in rows],
               heads=[h for _, _, h, _ in rows], deps=[d for _, _, _, d in rows],
               lemmas=words)


def test_a_name_with_a_preposition_inside_is_one_unit_apart_from_the_next_name():
    # "Il governatore della Banca d'Italia Mario Draghi parla"
    doc = _doc("it", [
        ("Il", "DET", 1, "det"), ("governatore", "NOUN", 8, "nsubj"),
        ("della", "ADP", 3, "case"), ("Banca", "PROPN", 1, "nmod"),
        ("d'", "ADP", 5, "case"), ("Italia", "PROPN", 3, "nmod"),
        ("Mario", "PROPN", 1, "appos"), ("Draghi", "PROPN", 6, "flat:name"),
        ("parla", "VERB", 8, "ROOT"),
    ])
    assert proper_nouns(doc[:], [], "it") == ["banca d'italia", "mario draghi"]


def test_name_particles_tied_by_flat_join_and_a_title_is_dropped():
    # "president Alexander Van der Bellen sprak" with "der" tagged ADP
    doc = _doc("nl", [
        ("president", "PROPN", 5, "nsubj"), ("Alexander", "PROPN", 0, "flat"),
        ("Van", "PROPN", 1, "flat"), ("der", "ADP", 1, "flat"),
        ("Bellen", "PROPN", 1, "flat"), ("sprak", "VERB", 5, "ROOT"),
    ])
    assert proper_nouns(doc[:], [], "nl") == ["alexander van der bellen"]


def test_spanish_name_with_de_and_weekday_is_not_a_name():
    # "El Banco de España habló el Lunes"
    doc = _doc("es", [
        ("El", "DET", 1, "det"), ("Banco", "PROPN", 4, "nsubj"), ("de", "ADP", 3, "case"),
        ("España", "PROPN", 1, "nmod"), ("habló", "VERB", 4, "ROOT"), ("el", "DET", 6, "det"),
        ("Lunes", "PROPN", 4, "obl"),
    ])
    assert proper_nouns(doc[:], [], "es") == ["banco de españa"]


def test_adjacent_names_without_a_relation_stay_apart():
    doc = _doc("it", [
        ("Roma", "PROPN", 2, "nsubj"), ("Milano", "PROPN", 2, "nsubj"),
        ("vincono", "VERB", 2, "ROOT"),
    ])
    assert proper_nouns(doc[:], [], "it") == ["milano", "roma"]


@pytest.mark.parametrize("language", ["it", "es", "nl"])
def test_each_new_language_has_its_lists(language):
    resources = language_resources(language)
    assert len(resources.titles) > 20
    assert len(resources.calendar_words) >= 19
    assert resources.stop_words
    assert all(word == word.casefold() for word in resources.calendar_words)


def test_a_language_without_a_file_has_empty_lists_and_missing_keys_are_tolerated(tmp_path):
    assert language_resources("xx") == LanguageResources("xx")
    (tmp_path / "pt.toml").write_text('titles = ["Sr."]\n', encoding="utf-8")
    resources = language_resources("pt", tmp_path)
    assert resources.titles == frozenset({"sr."})
    assert resources.calendar_words == frozenset()


def test_a_malformed_list_names_the_file_and_key(tmp_path):
    (tmp_path / "pt.toml").write_text('titles = "Sr."\n', encoding="utf-8")
    with pytest.raises(ParawireError, match=r"pt.toml: 'titles' must be a list"):
        language_resources("pt", tmp_path)
