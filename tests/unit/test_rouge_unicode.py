"""ROUGE scores accented and non-Latin text: the same words score 100, other words less."""

from __future__ import annotations

import pytest

pytest.importorskip("rouge_score")

from parawire.trainer.metrics import rouge_f1

SENTENCES = {
    "it": ("La città è più bella perché c'è il sole.", "La città è più triste perché piove."),
    "es": ("El niño comió la piña en el jardín.", "El niño bebió el café en la cocina."),
    "nl": ("De ploeg won één wedstrijd in België.", "De ploeg verloor één wedstrijd in Rusland."),
    "ru": ("Москва является столицей России.", "Москва является крупнейшим городом России."),
}


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_identical_sentences_score_100_and_partial_overlap_scores_between(language):
    sentence, other = SENTENCES[language]
    assert rouge_f1([sentence], [sentence]) == {"rouge1": 100.0, "rouge2": 100.0, "rougeL": 100.0}
    partial = rouge_f1([other], [sentence])
    assert 0 < partial["rouge1"] < 100
    assert 0 < partial["rougeL"] < 100


def test_accented_words_are_whole_words():
    # "città" and "citta" are different words: the accent is not dropped or split off.
    assert rouge_f1(["città"], ["citta"])["rouge1"] == 0.0
    assert rouge_f1(["perché sì"], ["perché no"])["rouge1"] == 50.0
