"""The pair scorer: fitted with scikit-learn, kept as JSON, loaded back, and the shipped one."""

from __future__ import annotations

import json
import random

import pytest

from parawire.aligner import SIGNALS, fit_scorer, load_scorer
from parawire.aligner.scorer import precision_threshold
from parawire.config import AlignConfig
from parawire.errors import ParawireError


def _rows(count: int, seed: int) -> tuple[list[dict[str, float]], list[bool]]:
    """Pairs whose label follows their cosine and novel-word share, with noise."""
    rng = random.Random(seed)
    rows, labels = [], []
    for _ in range(count):
        row = {name: rng.random() for name in SIGNALS}
        labels.append(row["cosine"] - 0.5 * row["novel_ratio"] + rng.gauss(0, 0.15) > 0.3)
        rows.append(row)
    return rows, labels


def test_a_fitted_scorer_reaches_its_target_and_survives_a_round_trip(tmp_path):
    rows, labels = _rows(400, seed=3)
    scorer = fit_scorer(rows, labels, target_precision=0.9, trained_on="synthetic")
    assert scorer.evaluation["cv_precision_at_threshold"] >= 0.9
    assert 0 < scorer.evaluation["cv_recall_at_threshold"] < 1
    low, high = dict(rows[0], cosine=0.0), dict(rows[0], cosine=1.0)
    assert scorer.probability(high) > scorer.probability(low)
    scorer.save(tmp_path / "model.json")
    loaded = load_scorer(tmp_path / "model.json")
    assert loaded.version == scorer.version and loaded.version.startswith("lr-")
    assert loaded.probability(rows[5]) == pytest.approx(scorer.probability(rows[5]))
    assert json.loads((tmp_path / "model.json").read_text())["version"] == scorer.version


def test_the_threshold_is_the_lowest_that_reaches_the_precision():
    probabilities = [0.9, 0.8, 0.7, 0.6, 0.5]
    labels = [True, True, False, True, False]
    assert precision_threshold(probabilities, labels, 0.75) == (0.6, 0.75, 1.0)
    assert precision_threshold(probabilities, labels, 1.0) == (0.8, 1.0, 2 / 3)
    assert precision_threshold([0.4], [False], 0.5) == (1.0, 0.0, 0.0)


def test_too_few_labels_and_bad_files_are_named(tmp_path):
    with pytest.raises(ParawireError, match="at least 5 right and 5 wrong"):
        fit_scorer(*_rows(8, seed=1), target_precision=0.9, trained_on="x")
    (tmp_path / "bad.json").write_text('{"format": 1, "signals": ["cosine"]}')
    with pytest.raises(ParawireError, match="bad.json: missing or bad key"):
        load_scorer(tmp_path / "bad.json")
    with pytest.raises(ParawireError, match="cannot read pair scorer model"):
        load_scorer(tmp_path / "absent.json")


def test_the_shipped_scorer_is_trained_on_msrp_train_and_sets_the_default_threshold():
    shipped = load_scorer()
    assert shipped.signals == SIGNALS
    assert shipped.trained_on.startswith("msr-para-train.tsv")
    assert AlignConfig().min_probability == shipped.threshold
    assert shipped.evaluation["cv_precision_at_threshold"] >= shipped.target_precision
