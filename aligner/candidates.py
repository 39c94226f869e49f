"""Candidate sources behind one interface, registered by name (DESIGN.md, "Seams").

A source takes a batch of reference sentences and the run's search context and returns the
sentences it proposes for each, with its own features. What happens next (filters, the pair
model, orientation) does not depend on which source found a candidate."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from parawire.aligner.params import AlignParams
from parawire.aligner.query import build_query
from parawire.aligner.scoring import above_beta, normalized
from parawire.indexer import SentenceIndex, VectorStore
from parawire.records import Sentence
from parawire.store import Store

# A language's sentence vectors (a language without them: an error naming the fix).
VectorsOf = Callable[[str], VectorStore]


@dataclass(slots=True)
class Candidate:
    """A sentence a source proposes for a reference. `score` ranks a source's candidates
    (HCSSS: the normalised engine score; a vector source: its similarity), `raw_score` is the
    source's unnormalised score, `features` the source's own evidence by name."""

    reference: Sentence
    sentence: Sentence
    source: str
    score: float
    raw_score: float
    features: dict[str, float] = field(default_factory=dict)
    story_id: int | None = None


@dataclass(slots=True)
class SearchContext:
    """What a source may read while searching one batch: the store, the index, the run's
    parameters, the batch's counts (each source adds its own), and, when the run searches
    within stories, each reference's story and the ids of its story's sentences from other
    outlets (None: the whole date window), and each language's sentence vectors when a
    source reads them."""

    store: Store
    index: SentenceIndex
    params: AlignParams
    counts: Counter[str]
    partners: Mapping[int, tuple[int, list[int]]] | None = None
    vectors: VectorsOf | None = None


class CandidateSource(Protocol):
    """Proposes candidate sentences for references."""

    name: str

    def candidates(self, references: Sequence[Sentence],
                   context: SearchContext) -> list[Candidate]:
        """The candidates of these references, with the source's features."""
        ...


class HcsssSource:
    """The paper's highly constrained search: the engine query of each reference (every
    proper noun, enough common nouns, the date window), scores rescaled and cut at β.
    Within stories, the engine searches only the reference's partners (its story's
    sentences from other outlets) before the rescaling; a search that fills max_hits is
    counted as hits_capped. Titles are not searched from (the titles source reads them)."""

    name = "hcsss"

    def candidates(self, references: Sequence[Sentence],
                   context: SearchContext) -> list[Candidate]:
        """Hits at or above β, with the engine's score, and BM25 over the reference's own."""
        params, index, counts = context.params, context.index, context.counts
        found: list[tuple[Sentence, int, float, float, float]] = []
        for reference in references:
            assert reference.id is not None
            if reference.is_title:
                continue  # the titles source's (aligner/title_source.py)
            query = build_query(reference, params)
            if query is None:
                continue
            allowed = _story_partners(reference.id, context)
            if allowed is not None and not allowed:
                counts["references_without_partners"] += 1  # in no story, or one outlet's
                continue
            counts["references"] += 1
            hits = index.search(replace(query, among_ids=allowed))
            if len(hits) >= query.limit:
                counts["hits_capped"] += 1
            counts["candidates"] += len(hits)
            self_score = index.score_of(reference.id, query.text_terms) if hits else 0.0
            above = above_beta(normalized(hits, params.normalize, self_score), params.beta)
            counts["above_beta"] += len(above)
            found.extend((reference, hit.sentence_id, score, hit.score,
                          hit.score / self_score if self_score > 0 else 0.0)
                         for hit, score in above)
        sentences = context.store.sentences_by_id(sentence_id for _, sentence_id, *_ in found)
        return [Candidate(reference, sentences[sentence_id], self.name, score, raw,
                          {"bm25": bm25}, story_id=story_of(reference.id, context))
                for reference, sentence_id, score, raw, bm25 in found]


def _story_partners(reference_id: int, context: SearchContext) -> tuple[int, ...] | None:
    """The sentences a reference may pair with when the run searches within stories (empty:
    its article is in no story, or no other outlet told its story); None: the whole window."""
    if context.partners is None:
        return None
    story = context.partners.get(reference_id)
    return tuple(story[1]) if story is not None else ()


def story_of(reference_id: int | None, context: SearchContext) -> int | None:
    """The story a reference is searched within (None: the run searches the whole window)."""
    if context.partners is None or reference_id not in context.partners:
        return None
    return context.partners[reference_id][0]


CANDIDATE_SOURCES: dict[str, CandidateSource] = {source.name: source for source in (HcsssSource(),)}
