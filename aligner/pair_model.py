"""The pair model: a multinomial logistic regression over a candidate's features
(pair_features.FEATURES), kept as a small JSON file, giving each candidate a grade (0-5) and
a direction with the probability of each grade.

Its classes are grades 0, 1, 2, 4 and grade 3 twice, by direction ("3a": side a covers
side b, "3b": the reverse); training reads every pair both ways round, so the model is
symmetric. Grade 5 is grade 4's probability where neither side adds a content word (the
dev gold holds too few grade-5 pairs to learn it apart)."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from parawire.aligner.batch_features import EmbedderOf, featurize
from parawire.aligner.grading import Grading
from parawire.aligner.pair_features import FEATURES, swapped
from parawire.errors import ParawireError
from parawire.records import Direction

DEFAULT_PAIR_MODEL = Path(__file__).with_name("models") / "pair_model.json"
FORMAT = 1
CLASSES = ("0", "1", "2", "3a", "3b", "4")
# The features the model is fitted on by default: a compact set, since the dev gold's tune
# part holds 72 useful pairs; every feature of FEATURES fitted together did worse on it
# (grouped cross-validation, bench/pair_model_features.py).
MODEL_FEATURES = ("cosine", "cover_share_a", "cover_share_b", "added_a", "added_b",
                  "added_nouns_a", "added_nouns_b", "numbers_only_a", "numbers_only_b")
ABSENT = -60.0  # the intercept of a class the training data lacks


@dataclass(frozen=True, slots=True)
class GradeModel:
    """A fitted model: class scores = intercept + coef · standardised features, softmaxed."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[tuple[float, ...], ...]  # one row per class of CLASSES
    intercept: tuple[float, ...]
    trained_on: str
    evaluation: dict[str, float] = field(default_factory=dict)

    @property
    def version(self) -> str:
        """A short hash of everything that decides the model's probabilities."""
        key = json.dumps([self.features, self.mean, self.scale, self.coef, self.intercept])
        return "grade-lr-" + hashlib.sha256(key.encode()).hexdigest()[:12]

    def class_probabilities(self, features: Mapping[str, float]) -> list[float]:
        """The probability of each class of CLASSES."""
        x = [(features[name] - m) / s
             for name, m, s in zip(self.features, self.mean, self.scale, strict=True)]
        scores = [b + sum(c * v for c, v in zip(row, x, strict=True))
                  for row, b in zip(self.coef, self.intercept, strict=True)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return [e / total for e in exps]

    def grading(self, features: Mapping[str, float]) -> Grading:
        """The grade, direction and grade probabilities of a pair with these features."""
        p = dict(zip(CLASSES, self.class_probabilities(features), strict=True))
        nothing_added = features["added_a"] == 0 and features["added_b"] == 0
        grades = (p["0"], p["1"], p["2"], p["3a"] + p["3b"],
                  0.0 if nothing_added else p["4"], p["4"] if nothing_added else 0.0)
        grade = max(range(6), key=lambda g: grades[g])
        if grade >= 4:
            direction = Direction.EQUIVALENT
        elif grade == 3:
            direction = Direction.A_COVERS_B if p["3a"] >= p["3b"] else Direction.B_COVERS_A
        else:
            direction = Direction.BOTH_ADD
        return Grading(grade, direction, tuple(round(v, 4) for v in grades))

    def to_json(self) -> dict[str, Any]:
        """The model file's content."""
        return {"format": FORMAT, "version": self.version, "classes": CLASSES, **asdict(self)}

    def save(self, path: Path) -> None:
        """Write the model file."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


class FeaturePairModel:
    """The PairModel of a GradeModel: features by the languages' embedders, then grades."""

    def __init__(self, model: GradeModel, embedder_of: EmbedderOf) -> None:
        self.model, self.embedder_of = model, embedder_of
        self.version = model.version

    def grade(self, candidates: Sequence[Any]) -> list[Grading]:
        """One grading per candidate, in order (their features are kept on `last_features`)."""
        rows = featurize([(c.reference, c.sentence, c.features) for c in candidates],
                         self.embedder_of)
        self.last_features = rows
        return [self.model.grading(row) for row in rows]


def load_pair_model(path: str | Path = "") -> GradeModel:
    """The model in a file ("" for the one shipped with parawire)."""
    return _load(Path(path) if path else DEFAULT_PAIR_MODEL)


@lru_cache(maxsize=8)
def _load(path: Path) -> GradeModel:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParawireError(f"cannot read pair model {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ParawireError(f"pair model {path} is not valid JSON: {exc}") from None
    if data.get("format") != FORMAT or tuple(data.get("classes", ())) != CLASSES:
        raise ParawireError(f"pair model {path}: unknown format or classes")
    try:
        model = GradeModel(
            features=tuple(data["features"]), mean=tuple(data["mean"]),
            scale=tuple(data["scale"]), coef=tuple(tuple(row) for row in data["coef"]),
            intercept=tuple(data["intercept"]), trained_on=str(data["trained_on"]),
            evaluation=dict(data.get("evaluation", {})))
    except (KeyError, TypeError) as exc:
        raise ParawireError(f"pair model {path}: missing or bad key {exc}") from None
    if set(model.features) - set(FEATURES) or len(model.coef) != len(CLASSES):
        raise ParawireError(f"pair model {path}: features or classes do not match")
    return model


def training_class(grade: int, direction: Direction) -> str:
    """The model's class of a graded pair (side a as read)."""
    if grade >= 4:
        return "4"
    if grade == 3:
        return "3a" if direction == Direction.A_COVERS_B else "3b"
    return str(grade)


def fit_pair_model(rows: Sequence[Mapping[str, float]], grades: Sequence[int],
                   directions: Sequence[Direction], weights: Sequence[float], *,
                   trained_on: str, features: Sequence[str] = MODEL_FEATURES) -> GradeModel:
    """Fit the model on graded pairs' features (MODEL_FEATURES, or others of FEATURES to
    try in a bench), each pair read both ways round."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    flip = {"3a": "3b", "3b": "3a"}
    x, y, w = [], [], []
    for row, grade, direction, weight in zip(rows, grades, directions, weights, strict=True):
        label = training_class(grade, direction)
        for read, name in ((row, label), (swapped(row), flip.get(label, label))):
            x.append([read[f] for f in features])
            y.append(name)
            w.append(weight)
    if len(set(y)) < 2:
        raise ParawireError("training the pair model needs pairs of at least two grades")
    xs = np.array(x, dtype=np.float64)
    scaler = StandardScaler().fit(xs)
    regression = LogisticRegression(C=1.0, max_iter=3000).fit(
        scaler.transform(xs), np.array(y), sample_weight=np.array(w))
    learnt = list(regression.classes_)
    coef = regression.coef_ if len(learnt) > 2 else np.vstack([-regression.coef_[0] / 2,
                                                              regression.coef_[0] / 2])
    intercept = (regression.intercept_ if len(learnt) > 2
                 else [-regression.intercept_[0] / 2, regression.intercept_[0] / 2])
    zeros = (0.0,) * len(features)
    # a class no training pair holds gets no probability
    return GradeModel(
        features=tuple(features), mean=tuple(float(v) for v in scaler.mean_),
        scale=tuple(float(v) if v > 0 else 1.0 for v in scaler.scale_),
        coef=tuple(tuple(float(v) for v in coef[learnt.index(c)]) if c in learnt else zeros
                   for c in CLASSES),
        intercept=tuple(float(intercept[learnt.index(c)]) if c in learnt else ABSENT
                        for c in CLASSES),
        trained_on=trained_on, evaluation={"pairs": len(rows)})
