"""Training the pair scorer: labelled text pairs (a TSV file such as MSRP's) annotated by the
configured NLP backend, and the operator's review labels of mined pairs."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from parawire.aligner import PairScorer, as_one_sentence, fit_scorer, labelled_signals, load_scorer
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.nlp import annotator_for
from parawire.records import Article, Sentence
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


def text_pair_signals(settings: Settings, pairs: list[tuple[bool, str, str]],
                      language: str) -> list[dict[str, float]]:
    """The signals of labelled text pairs."""
    sentences = annotate_texts(settings, (t for _, a, b in pairs for t in (a, b)), language)
    return labelled_signals([(sentences[a], sentences[b]) for _, a, b in pairs])


def train_scorer(settings: Settings, *, labels: Path | None, reviews: bool, run_id: int | None,
                 out: Path, target_precision: float, language: str) -> dict[str, Any]:
    """Fit the pair scorer on labelled text pairs and/or the operator's review labels, write
    it to `out`; returns its version, threshold and cross-validated figures, and how the
    current scorer does on the review labels."""
    rows: list[dict[str, float]] = []
    answers: list[bool] = []
    sources = []
    if labels is not None:
        pairs = read_labelled_pairs(labels)
        rows += text_pair_signals(settings, pairs, language)
        answers += [label for label, _, _ in pairs]
        sources.append(f"{labels.name} ({len(pairs)} pairs)")
    reviewed = store_of(settings).labelled_pair_signals(run_id) if reviews else []
    if reviews:
        rows += [signals for signals, _ in reviewed]
        answers += [correct for _, correct in reviewed]
        sources.append(f"review labels ({len(reviewed)} pairs)")
    if not sources:
        raise ParawireError("nothing to train the pair scorer on: give --labels FILE or --reviews")
    scorer = fit_scorer(rows, answers, target_precision=target_precision,
                        trained_on=" + ".join(sources))
    scorer.save(out)
    return {"path": str(out), "version": scorer.version, "threshold": scorer.threshold,
            **scorer.evaluation, "reviews": _review_precision(settings, reviewed)}


def _review_precision(settings: Settings,
                      reviewed: list[tuple[dict[str, float], bool]]) -> dict[str, Any]:
    """The precision of the operator's labels among the pairs the configured scorer keeps."""
    if not reviewed:
        return {"labelled": 0}
    current: PairScorer = load_scorer(settings.align.scorer_model)
    kept = [correct for signals, correct in reviewed
            if current.probability(signals) >= settings.align.min_probability]
    return {"labelled": len(reviewed), "kept_by_current_scorer": len(kept),
            "precision_of_kept": round(sum(kept) / len(kept), 4) if kept else None}
