"""The annotate stage: every article not yet annotated becomes annotated sentences."""

from __future__ import annotations

from collections import Counter

from tqdm import tqdm

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.nlp.pmi import PmiCollocations, candidate_counts
from parawire.nlp.protocol import Annotator
from parawire.nlp.segment import over_long_passages
from parawire.nlp.spacy_annotator import SpacyAnnotator
from parawire.nlp.stanza_annotator import StanzaAnnotator, load_stanza_pipeline
from parawire.records import Article, CollocationCounts
from parawire.store import Store


def annotator_for(settings: Settings, language: str) -> Annotator:
    """The configured annotator for one language (nlp.backend, or nlp.backends.<language>)."""
    nlp = settings.nlp
    if nlp.backend_for(language) == "stanza":
        pipeline = load_stanza_pipeline(language, nlp.stanza_dir,
                                        nlp.stanza_packages.get(language, "default"))
        return StanzaAnnotator(pipeline, language, batch_size=nlp.batch_size)
    model = nlp.models.get(language)
    if not model:
        raise ParawireError(
            f"no NLP model configured for language {language!r}: set nlp.models.{language}"
        )
    return SpacyAnnotator(model, language, batch_size=nlp.batch_size, processes=nlp.processes)


def annotate_pending(settings: Settings, store: Store) -> dict[str, int]:
    """Annotate every article not yet annotated; returns counts.

    With nlp.pmi, each language's collocation counts start from those the store keeps over
    the sentences already stored and grow with every batch; a batch gets the collocations
    its own sentences complete, and each article's counts are stored with its sentences."""
    annotators: dict[str, Annotator] = {}
    statistics: dict[str, PmiCollocations] = {}
    counts: Counter[str] = Counter()
    total = store.count_articles_to_annotate()
    with tqdm(total=total, desc="annotate", unit="article", disable=None) as bar:
        for batch in store.articles_to_annotate():
            by_language: dict[str, list[Article]] = {}
            for article in batch:
                by_language.setdefault(article.language, []).append(article)
            for language, articles in by_language.items():
                if language not in annotators:
                    annotators[language] = annotator_for(settings, language)
                done = list(annotators[language].annotate(articles))
                added: list[CollocationCounts | None] = [None] * len(done)
                if settings.nlp.pmi:
                    if language not in statistics:
                        statistics[language] = _stored_statistics(settings, store, language)
                    added = list(statistics[language].learn_and_mark(
                        sentences for _, sentences in done))
                # One commit per batch, not per article (a killed run redoes one batch).
                with store.transaction():
                    for (article, sentences), article_counts in zip(done, added, strict=True):
                        assert article.id is not None
                        if not store.save_annotations(article.id, sentences, article_counts,
                                                      pending_only=True):
                            continue  # another annotate run stored it meanwhile
                        counts["articles"] += 1
                        if cut := over_long_passages(article.text):
                            counts["passages_cut"] += cut
                        counts["sentences"] += len(sentences)
                bar.update(len(done))
    return dict(counts)


def _stored_statistics(settings: Settings, store: Store, language: str) -> PmiCollocations:
    """The language's stored collocation counts, once they cover every annotated article
    (articles annotated before counts were kept, or with nlp.pmi off, are counted here)."""
    for article_ids, sentences in store.uncounted_sentences(language):
        store.add_collocation_counts(language, article_ids, candidate_counts(sentences))
    return PmiCollocations(settings.nlp.pmi_min_count, settings.nlp.pmi_threshold,
                           store.collocation_counts(language))
