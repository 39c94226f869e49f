"""Signals of labelled sentence pairs, for training and evaluating the pair scorer.

The labelled sentences are indexed in memory, so that BM25 is computed as in a run: the
candidate's score for the reference's query over the reference's score for its own query,
where the reference is the side with fewer entity keys (Algorithm 1's reference never has
more) and, on a tie, the first.
"""

from __future__ import annotations

from collections.abc import Sequence

from parawire.aligner.query import ranking_terms
from parawire.aligner.semantic import cosine_similarities
from parawire.aligner.signals import pair_signals
from parawire.indexer import SentenceIndex, TantivyIndex
from parawire.records import Sentence


def normalised_bm25(index: SentenceIndex, reference: Sentence, candidate: Sentence) -> float:
    """The candidate's BM25 score for the reference's ranking terms over the reference's own."""
    assert reference.id is not None and candidate.id is not None
    terms = ranking_terms(reference)
    own = index.score_of(reference.id, terms)
    return index.score_of(candidate.id, terms) / own if own > 0 else 0.0


def labelled_signals(pairs: Sequence[tuple[Sentence, Sentence]]) -> list[dict[str, float]]:
    """The signals of each (a, b) pair of annotated sentences (each with an id)."""
    index = TantivyIndex(None)
    index.add({s.id: s for pair in pairs for s in pair}.values())
    index.commit()
    cosines = cosine_similarities([(a.text, b.text) for a, b in pairs])
    rows = []
    for (a, b), cosine in zip(pairs, cosines, strict=True):
        reference, candidate = (b, a) if len(b.pn) < len(a.pn) else (a, b)
        rows.append(pair_signals(a, b, normalised_bm25(index, reference, candidate), cosine))
    return rows


def as_one_sentence(parts: Sequence[Sentence], text: str, sentence_id: int) -> Sentence:
    """A labelled text annotated as one or more sentences, as one sentence with the features
    of all its parts (a labelled pair compares whole texts)."""
    first = parts[0] if parts else Sentence(article_id=0, position=0, text=text)
    return Sentence(
        id=sentence_id, article_id=first.article_id, position=0, text=text,
        tokens=[t for s in parts for t in s.tokens], lemmas=[t for s in parts for t in s.lemmas],
        pos=[t for s in parts for t in s.pos], entities=[e for s in parts for e in s.entities],
        proper_nouns=sorted({n for s in parts for n in s.proper_nouns}),
        entity_keys=sorted({n for s in parts for n in s.entity_keys}),
        common_nouns=sorted({n for s in parts for n in s.common_nouns}),
        language=first.language, topic=first.topic, published=first.published,
        source=first.source)
