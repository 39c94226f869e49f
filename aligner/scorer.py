"""The pair scorer: a logistic regression over a pair's signals, kept as a small JSON file.

Training (scikit-learn) standardises the signals and fits the regression; the model file
holds the means, scales, coefficients and intercept, so scoring needs only arithmetic. The
file also holds the probability threshold that reached the target precision in
cross-validation on the training labels (out-of-fold probabilities), its version (a hash of
its content) and what it was trained on.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from parawire.aligner.signals import SIGNALS
from parawire.errors import ParawireError

DEFAULT_MODEL = Path(__file__).with_name("models") / "pair_scorer.json"
FORMAT = 1


@dataclass(frozen=True, slots=True)
class PairScorer:
    """A fitted scorer: P(paraphrase) = sigmoid(intercept + coef · standardised signals)."""

    signals: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    target_precision: float
    trained_on: str
    evaluation: dict[str, float] = field(default_factory=dict)

    @property
    def version(self) -> str:
        """The model's version: a short hash of everything that decides its probabilities."""
        key = json.dumps([self.signals, self.mean, self.scale, self.coef, self.intercept])
        return "lr-" + hashlib.sha256(key.encode()).hexdigest()[:12]

    def probability(self, signals: Mapping[str, float]) -> float:
        """The probability that a pair with these signals is a paraphrase."""
        z = self.intercept + sum(
            c * (signals[name] - m) / s
            for name, m, s, c in zip(self.signals, self.mean, self.scale, self.coef, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def to_json(self) -> dict[str, Any]:
        """The model file's content."""
        return {"format": FORMAT, "version": self.version, **asdict(self)}

    def save(self, path: Path) -> None:
        """Write the model file."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def load_scorer(path: str | Path = "") -> PairScorer:
    """The scorer in a model file ("" for the one shipped with parawire)."""
    return _load(Path(path) if path else DEFAULT_MODEL)


@lru_cache(maxsize=8)
def _load(path: Path) -> PairScorer:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParawireError(f"cannot read pair scorer model {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ParawireError(f"pair scorer model {path} is not valid JSON: {exc}") from None
    if data.get("format") != FORMAT:
        raise ParawireError(f"pair scorer model {path}: unknown format {data.get('format')!r}")
    try:
        scorer = PairScorer(
            signals=tuple(data["signals"]), mean=tuple(data["mean"]), scale=tuple(data["scale"]),
            coef=tuple(data["coef"]), intercept=float(data["intercept"]),
            threshold=float(data["threshold"]), target_precision=float(data["target_precision"]),
            trained_on=str(data["trained_on"]), evaluation=dict(data.get("evaluation", {})))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParawireError(f"pair scorer model {path}: missing or bad key {exc}") from None
    unknown = set(scorer.signals) - set(SIGNALS)
    if unknown or not len(scorer.signals) == len(scorer.mean) == len(scorer.scale) == len(
            scorer.coef):
        raise ParawireError(f"pair scorer model {path}: signals do not match its coefficients "
                            f"or are unknown ({sorted(unknown)})")
    return scorer


def fit_scorer(rows: Sequence[Mapping[str, float]], labels: Sequence[bool], *,
               target_precision: float, trained_on: str, folds: int = 5,
               seed: int = 0) -> PairScorer:
    """Fit a scorer on labelled pairs' signals; its threshold is the lowest probability at
    which the out-of-fold predictions of `folds`-fold cross-validation reach the target
    precision (1.0 where none does)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if len(set(labels)) < 2 or min(sum(labels), len(labels) - sum(labels)) < folds:
        raise ParawireError(f"training the pair scorer needs at least {folds} right and "
                            f"{folds} wrong labelled pairs (got {sum(labels)} and "
                            f"{len(labels) - sum(labels)})")
    x = np.array([[row[name] for name in SIGNALS] for row in rows], dtype=np.float64)
    y = np.array(labels, dtype=bool)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    cv = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    held_out = cross_val_predict(model, x, y, cv=cv, method="predict_proba")[:, 1]
    threshold, precision, recall = precision_threshold(held_out.tolist(), y.tolist(),
                                                       target_precision)
    model.fit(x, y)
    scaler, regression = model[0], model[1]
    return PairScorer(
        signals=SIGNALS, mean=tuple(float(v) for v in scaler.mean_),
        scale=tuple(float(v) for v in scaler.scale_), coef=tuple(float(v) for v in regression.coef_[0]),
        intercept=float(regression.intercept_[0]), threshold=round(threshold, 4),
        target_precision=target_precision, trained_on=trained_on,
        evaluation={"pairs": len(y), "positives": int(y.sum()), "cv_folds": folds,
                    "cv_precision_at_threshold": round(precision, 4),
                    "cv_recall_at_threshold": round(recall, 4)})


def precision_threshold(probabilities: Sequence[float], labels: Sequence[bool],
                        target: float) -> tuple[float, float, float]:
    """The lowest threshold whose predictions (probability >= threshold) reach the target
    precision, with that precision and the recall; (1.0, 0.0, 0.0) when none does."""
    ranked = sorted(zip(probabilities, labels, strict=True), key=lambda pair: -pair[0])
    positives = int(sum(bool(label) for label in labels)) or 1
    best = (1.0, 0.0, 0.0)
    right = 0
    for k, (probability, label) in enumerate(ranked, start=1):
        right += bool(label)
        if k < len(ranked) and ranked[k][0] == probability:
            continue  # a threshold keeps every pair of equal probability
        if right / k >= target:
            best = (float(probability), float(right / k), float(right / positives))
    return best
