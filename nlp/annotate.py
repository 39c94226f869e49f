"""The annotate stage: every article not yet annotated becomes annotated sentences."""

from __future__ import annotations

from collections import Counter

from tqdm import tqdm

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.iterate import batched
from parawire.nlp.pmi import PmiCollocations, candidate_counts
from parawire.nlp.protocol import Annotator
from parawire.nlp.segment import over_long_passages
from parawire.nlp.spacy_annotator import SpacyAnnotator
from parawire.nlp.stanza_annotator import StanzaAnnotator, load_stanza_pipeline
from parawire.records import Article, CollocationCounts, Sentence
from parawire.store import Store

# Articles stored per transaction.
ARTICLES_PER_COMMIT = 200


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
    """Annotate every article not yet annotated, language by language; returns counts.

    The annotator reads the pending articles as one stream (a multi-process annotator goes
    on parsing while a batch is stored). With nlp.pmi, each language's collocation counts
    start from those the store keeps over the sentences already stored and grow with every
    batch; a batch gets the collocations its own sentences complete, and each article's
    counts are stored with its sentences."""
    counts: Counter[str] = Counter()
    total = store.count_articles_to_annotate()
    with tqdm(total=total, desc="annotate", unit="article", disable=None) as bar:
        for language in store.languages_to_annotate():
            annotator = annotator_for(settings, language)
            statistics = _stored_statistics(settings, store, language) if settings.nlp.pmi \
                else None
            pending = (article for batch in store.articles_to_annotate(language=language)
                       for article in batch)
            for done in batched(annotator.annotate(pending), ARTICLES_PER_COMMIT):
                added: list[CollocationCounts | None] = [None] * len(done)
                if statistics is not None:
                    added = list(statistics.learn_and_mark(sentences for _, sentences in done))
                _store_batch(store, done, added, counts)
                bar.update(len(done))
    return dict(counts)


def _store_batch(store: Store, done: list[tuple[Article, list[Sentence]]],
                 added: list[CollocationCounts | None], counts: Counter[str]) -> None:
    """One commit per batch, not per article (a killed run redoes one batch)."""
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


def _stored_statistics(settings: Settings, store: Store, language: str) -> PmiCollocations:
    """The language's stored collocation counts, once they cover every annotated article
    (articles annotated before counts were kept, or with nlp.pmi off, are counted here)."""
    for article_ids, sentences in store.uncounted_sentences(language):
        store.add_collocation_counts(language, article_ids, candidate_counts(sentences))
    return PmiCollocations(settings.nlp.pmi_min_count, settings.nlp.pmi_threshold,
                           store.collocation_counts(language))
