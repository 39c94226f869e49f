"""Annotation: the Annotator protocol, its spaCy backend, and the annotate stage."""

from __future__ import annotations

from collections import Counter

from tqdm import tqdm

from nlp.protocol import Annotator
from nlp.spacy_annotator import SpacyAnnotator
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.store import Store


def annotator_for(settings: Settings, language: str) -> Annotator:
    """The configured annotator for one language."""
    model = settings.nlp.models.get(language)
    if not model:
        raise ParawireError(
            f"no NLP model configured for language {language!r}: set nlp.models.{language}"
        )
    return SpacyAnnotator(model, language, batch_size=settings.nlp.batch_size)


def annotate_pending(settings: Settings, store: Store) -> dict[str, int]:
    """Annotate every article not yet annotated; returns counts."""
    annotators: dict[str, Annotator] = {}
    counts: Counter[str] = Counter()
    total = store.count_articles_to_annotate()
    with tqdm(total=total, desc="annotate", unit="article", disable=None) as bar:
        for batch in store.articles_to_annotate():
            by_language: dict[str, list] = {}
            for article in batch:
                by_language.setdefault(article.language, []).append(article)
            for language, articles in by_language.items():
                if language not in annotators:
                    annotators[language] = annotator_for(settings, language)
                for article, sentences in annotators[language].annotate(articles):
                    assert article.id is not None
                    store.save_annotations(article.id, sentences)
                    counts["articles"] += 1
                    counts["sentences"] += len(sentences)
                    bar.update(1)
    return dict(counts)


__all__ = ["Annotator", "SpacyAnnotator", "annotate_pending", "annotator_for"]
