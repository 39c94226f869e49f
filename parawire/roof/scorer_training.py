"""Training the pair model: the dev gold's graded pairs, binary labelled text pairs (a TSV file
such as MSRP's), each annotated by the configured NLP backend and embedded by the language's
embedder, and the operator's review labels of mined pairs."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from parawire.aligner import MODEL_FEATURES, as_one_sentence, featurize, fit_pair_model
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.nlp import annotator_for, embedder_for
from parawire.records import Article, Direction, ReviewedPair, Sentence
from parawire.roof.pair_gold import BINARY_GRADES, GradedText, binary_as_graded, read_dev_gold
from parawire.store import store_of


def read_labelled_pairs(path: Path) -> list[tuple[bool, str, str]]:
    """(label, text, text) rows of a tab-separated file whose first column is 1 (paraphrase)
    or 0 and whose last two columns are the texts, after a header line (MSRP's layout)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]
    except OSError as exc:
        raise ParawireError(f"cannot read labelled pairs {path}: {exc.strerror}") from None
    pairs = []
    for line, row in enumerate(rows, start=2):
        if len(row) < 3 or row[0].strip() not in ("0", "1"):
            raise ParawireError(f"{path}, line {line}: expected a 0/1 label and two texts, "
                                f"tab-separated")
        pairs.append((row[0].strip() == "1", row[-2], row[-1]))
    return pairs


def annotate_texts(settings: Settings, texts: Iterable[str], language: str) -> dict[str, Sentence]:
    """Each text annotated as an article of its own, as one sentence (ids from 1)."""
    unique = list(dict.fromkeys(texts))
    articles = [Article(id=k, url=f"text:{k}", source="labelled", language=language, title="",
                        text=text, published=None) for k, text in enumerate(unique, start=1)]
    return {article.text: as_one_sentence(sentences, article.text, article.id or 0)
            for article, sentences in annotator_for(settings, language).annotate(articles)}


# Binary pairs count less than graded ones: their grade is a mapping, not a reading.
BINARY_WEIGHT = 0.3


def graded_features(settings: Settings, pairs: list[GradedText],
                    language: str) -> list[dict[str, float]]:
    """The pair model's features of graded text pairs."""
    sentences = annotate_texts(settings, (t for p in pairs for t in (p.text_a, p.text_b)), language)
    return featurize([(sentences[p.text_a], sentences[p.text_b], {}) for p in pairs],
                     lambda lang: embedder_for(settings.vectors, settings.data_dir, lang))


def review_grade(pair: ReviewedPair) -> tuple[int, Direction]:
    """The grade and direction a review label gives its pair: the reader's where they
    graded it, else right or wrong as a binary label (BINARY_GRADES)."""
    if pair.grade is not None:
        return pair.grade, pair.direction or Direction.BOTH_ADD
    return (BINARY_GRADES[pair.correct],
            Direction.EQUIVALENT if pair.correct else Direction.BOTH_ADD)


def train_scorer(settings: Settings, *, gold: Path | None, labels: Path | None, reviews: bool,
                 run_id: int | None, out: Path, language: str) -> dict[str, Any]:
    """Fit the pair model on the dev gold's tune part, binary labelled text pairs and/or the
    operator's review labels, write it to `out`; returns its version and what it read."""
    pairs: list[GradedText] = []
    sources = []
    if gold is not None:
        tune = read_dev_gold(gold, "tune")
        pairs += tune
        sources.append(f"{gold.name} tune ({len(tune)} pairs)")
    if labels is not None:
        binary = binary_as_graded(read_labelled_pairs(labels), BINARY_WEIGHT)
        pairs += binary
        sources.append(f"{labels.name} ({len(binary)} pairs)")
    rows = graded_features(settings, pairs, language) if pairs else []
    grades = [p.grade for p in pairs]
    directions = [p.direction for p in pairs]
    weights = [p.weight for p in pairs]
    if reviews:
        reviewed = [pair for pair in store_of(settings).labelled_pair_signals(run_id)
                    if all(name in pair.features for name in MODEL_FEATURES)]
        rows += [pair.features for pair in reviewed]
        for pair in reviewed:
            grade, direction = review_grade(pair)
            grades.append(grade)
            directions.append(direction)
        weights += [1.0] * len(reviewed)
        sources.append(f"review labels ({len(reviewed)} pairs)")
    if not sources:
        raise ParawireError("nothing to train the pair model on: give --gold DIR, --labels FILE "
                            "or --reviews")
    model = fit_pair_model(rows, grades, directions, weights, trained_on=" + ".join(sources))
    model.save(out)
    return {"path": str(out), "version": model.version, "trained_on": model.trained_on,
            "pairs": len(rows)}
