"""The pair model's features on real sentence pairs of the dev gold (shared/data/pairs-dev,
tune part), and the model trained, saved, loaded and grading candidates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parawire.aligner import MODEL_FEATURES, featurize, fit_pair_model, load_pair_model
from parawire.aligner.pair_features import swapped
from parawire.config import load_settings
from parawire.nlp import embedder_for
from parawire.records import Direction
from parawire.roof.pair_gold import read_dev_gold
from parawire.roof.scorer_training import annotate_texts

SENATE = ("The Senate passed the budget resolution earlier on Friday in a 51-50 vote along "
          "party lines, with Vice President Kamala Harris casting the tie-breaking vote.")
SENATE_SHORT = "The Senate approved the same budget resolution early Friday morning."
DOJ = ("The Department of Justice (DOJ) on Monday announced that it is siding with a district "
       "court ruling that found the Affordable Care Act unconstitutional.")
DOJ_QUOTE = ("\"The Department of Justice has determined that the district court's judgment should "
             "be affirmed,\" three Justice Department lawyers wrote to the 5th Circuit Court of "
             "Appeals, which is now considering the case.")
JUDGE = ("A federal judge in Texas went much further in a December ruling, agreeing with "
         "plaintiff states who said the whole law should be invalidated.")
TRUMP = ("The Trump administration told a federal appeals court Monday it thinks all of Obamacare "
         "is unconstitutional, marking an escalation in its fight against the 2010 law.")
POT = ("High sign for legal pot — Pritzker inks bill making Illinois 11th state to allow "
       "recreational reefer")
POT_B = ("Illinois becomes 11th state in US to legalize recreational marijuana, first to set up "
         "statewide marketplace")


@pytest.fixture(scope="module")
def gold(shared_data: Path) -> list:
    return read_dev_gold(shared_data / "pairs-dev", "tune")


@pytest.fixture(scope="module")
def features(tmp_path_factory, gold):
    """The features of the pairs named here (each as the dev gold reads it)."""
    settings = load_settings(data_dir=tmp_path_factory.mktemp("data"))
    texts = {p.text_a for p in gold} | {p.text_b for p in gold}
    wanted = [(SENATE, SENATE_SHORT), (DOJ, DOJ_QUOTE), (JUDGE, DOJ), (TRUMP, DOJ_QUOTE),
              (POT, POT_B)]
    assert all(t in texts for pair in wanted for t in pair), "dev gold texts changed"
    sentences = annotate_texts(settings, (t for pair in wanted for t in pair), "en")
    rows = featurize([(sentences[a], sentences[b], {}) for a, b in wanted],
                     lambda lang: embedder_for(settings.vectors, settings.data_dir, lang))
    return dict(zip(wanted, rows, strict=True))


def test_coverage_says_which_side_covers_the_other(features, gold):
    row = features[(SENATE, SENATE_SHORT)]
    listed = next(p for p in gold if (p.text_a, p.text_b) == (SENATE, SENATE_SHORT))
    assert (listed.grade, listed.direction) == (3, Direction.A_COVERS_B)
    # most of the short side is stated by the long one, little of the long one by the short
    assert row["cover_share_b"] >= 0.7 > 0.4 > row["cover_share_a"]
    assert row["cover_soft_b"] > row["cover_soft_a"]
    assert row["added_a"] > 3 * row["added_b"]
    # the long side's vote, party lines and tie-breaking: nouns the short side lacks
    assert row["added_nouns_a"] >= 3 and row["added_nouns_b"] == 0


def test_per_side_additions_of_figures_and_speakers(features):
    row = features[(SENATE, SENATE_SHORT)]
    assert (row["numbers_only_a"], row["numbers_only_b"]) == (2.0, 0.0)  # 51, 50
    assert row["speakers_only_a"] >= 1 and row["speakers_only_b"] == 0  # Kamala Harris
    assert row["number_conflict"] == 0.0
    pot = features[(POT, POT_B)]
    assert (pot["speakers_only_a"], pot["speakers_only_b"]) == (1.0, 0.0)  # Pritzker


def test_number_and_date_conflicts(features):
    assert features[(TRUMP, DOJ_QUOTE)]["number_conflict"] == 1.0  # 2010 against 5th, three
    assert features[(JUDGE, DOJ)]["date_conflict"] == 1.0  # December against Monday
    assert features[(SENATE, SENATE_SHORT)]["date_conflict"] == 0.0  # Friday on both sides


def test_quote_derived_share(features):
    quoted = features[(DOJ, DOJ_QUOTE)]
    assert quoted["quote_share"] > 0.3
    assert features[(SENATE, SENATE_SHORT)]["quote_share"] == 0.0


def test_features_read_the_other_way_round_are_the_twins_swapped(features):
    row = features[(SENATE, SENATE_SHORT)]
    back = swapped(row)
    assert back["added_b"] == row["added_a"] and back["cover_share_a"] == row["cover_share_b"]
    assert back["cosine"] == row["cosine"]


def test_model_trained_saved_loaded_and_grading(features, tmp_path):
    rows = list(features.values())
    # every class at least once: the pairs as read, and grade-4 and 3-reversed stand-ins
    grades = [3, 2, 1, 0, 4, 3]
    directions = [Direction.A_COVERS_B, Direction.BOTH_ADD, Direction.BOTH_ADD,
                  Direction.BOTH_ADD, Direction.EQUIVALENT, Direction.B_COVERS_A]
    rows = [*rows, swapped(rows[0])]
    model = fit_pair_model(rows, grades, directions, [1.0] * 6, trained_on="six pairs")
    path = tmp_path / "model.json"
    model.save(path)
    loaded = load_pair_model(path)
    assert loaded.version == model.version == json.loads(path.read_text())["version"]
    assert loaded.features == MODEL_FEATURES
    grading = loaded.grading(features[(SENATE, SENATE_SHORT)])
    assert len(grading.probabilities) == 6 and abs(sum(grading.probabilities) - 1) < 1e-3
    assert grading.grade == 3 and grading.direction == Direction.A_COVERS_B
    assert loaded.grading(swapped(features[(SENATE, SENATE_SHORT)])).direction == \
        Direction.B_COVERS_A


def test_the_shipped_model_loads_with_its_version():
    model = load_pair_model()
    assert model.version.startswith("grade-lr-") and "tune" in model.trained_on
    assert model.features == MODEL_FEATURES
