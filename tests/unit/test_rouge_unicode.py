"""ROUGE scores accented and non-Latin text: the same words score 100, other words less."""

from __future__ import annotations

import pytest

pytest.importorskip("rouge_score")

from parawire.trainer.metrics import rouge_f1, score_all

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


def test_scores_against_the_input_give_ibleu_self_bleu_and_the_unchanged_share():
    inputs = ["the senate passed the bill on tuesday night", "police arrested two men in the city"]
    targets = ["the bill passed the senate on tuesday", "two men were arrested by police"]
    copies = score_all(inputs, targets, inputs)
    assert copies["self_bleu"] == 100.0 and copies["unchanged"] == 100.0
    assert copies["ibleu"] == round(0.8 * copies["bleu"] - 20.0, 2)
    perfect = score_all(targets, targets, inputs)
    assert perfect["unchanged"] == 0.0 and perfect["ibleu"] > copies["ibleu"]
    assert "ibleu" not in score_all(targets, targets)
