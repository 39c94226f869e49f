"""The dense candidate source: each reference's k nearest sentences among the other outlets'
sentences of its story (`SearchContext.partners`) or, without stories, of its date window,
kept only where HCSSS's filters would keep them (aligner/oracle.py, `within_filters`) and,
like the reference, able to pair at all (parawire/pairable.py: `dense_min_words` words or
more, no rule broken by the sentence alone): `dense_k − dense_lexical_k` of them
by sentence vector, the other `dense_lexical_k` the nearest of the rest by TF-IDF cosine
(aligner/lexical.py), those of a cosine under `dense_min_cosine` left out (they are not
worth grading). Features: cosine and the ratio margin of Artetxe & Schwenk (2019), the
cosine over the mean cosine of both sides' `margin_k` nearest neighbours."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta

import numpy as np

from parawire.aligner.candidates import CANDIDATE_SOURCES, Candidate, SearchContext, story_of
from parawire.aligner.lexical import LexicalPool
from parawire.aligner.oracle import within_filters
from parawire.indexer import VectorStore
from parawire.pairable import pairable
from parawire.records import Sentence


def pool_of(reference: Sentence, context: SearchContext,
            window: dict[object, list[int]]) -> list[int]:
    """The ids a reference is searched among: its story's other-outlet sentences, or every
    sentence of its language within the date window (`window` caches them per day)."""
    assert reference.id is not None
    if context.partners is not None:
        return context.partners.get(reference.id, (0, []))[1]
    key = (reference.language, reference.published)
    if key not in window:
        params = context.params
        days = timedelta(days=params.date_window_days)
        since = reference.published - days if reference.published else None
        until = reference.published + days if reference.published else None
        window[key] = [s.id for batch in context.store.sentence_nouns(
            language=reference.language, topic=params.topic if params.same_topic else None,
            since=since, until=until) for s in batch]
    return window[key]


def valid_candidate(reference: Sentence, sentence: Sentence, context: SearchContext) -> bool:
    """Whether a sentence of the pool may be a dense candidate of the reference: it passes
    the filters and can pair at all (`dense_min_words` words, no rule of its own broken:
    those `vectors.embed = "pairable"` embeds)."""
    return (within_filters(reference, sentence, context.params)
            and pairable(sentence, context.params.dense_min_words))


def first_pairable(reference: Sentence, context: SearchContext, k: int,
                   ranked: Callable[[int], list[tuple[int, float]]]
                   ) -> list[tuple[Sentence, float]]:
    """The first k pairable sentences of a ranking (`ranked(n)`: its best n), exactly: the
    ranking is read further until k pass or it is spent."""
    wanted = k + 16
    while True:
        hits = ranked(wanted)
        sentences = context.store.sentences_by_id(i for i, _ in hits)
        kept = [(sentences[i], score) for i, score in hits
                if valid_candidate(reference, sentences[i], context)]
        if len(kept) >= k or len(hits) < wanted:
            return kept[:k]
        wanted *= 4


def nearest_valid(reference: Sentence, query: np.ndarray, pool: list[int], files: VectorStore,
                  context: SearchContext, k: int) -> list[tuple[Sentence, float]]:
    """The k pairable sentences of the pool with the highest cosine."""
    return first_pairable(reference, context, k,
                          lambda n: files.search(query[None, :], pool, n)[0])


def lexical_pool(reference: Sentence, pool: list[int], files: VectorStore,
                 context: SearchContext, pools: dict[object, tuple[LexicalPool, np.ndarray]]
                 ) -> tuple[LexicalPool, np.ndarray]:
    """The TF-IDF rows of the reference's pool, and its ids with a vector: fitted once per
    story and outlet (the references of one outlet share a pool), or per day of the
    window."""
    key = ((story_of(reference.id, context), reference.source) if context.partners is not None
           else (reference.language, reference.published))
    if key not in pools:
        sentences = context.store.sentences_by_id(pool)
        ids = [i for i in pool if i in sentences]
        in_pool = np.asarray(pool, dtype=np.int64)
        pools[key] = (LexicalPool(ids, [sentences[i].text for i in ids]),
                      in_pool[files.held(pool)] if len(pool) else in_pool)
    return pools[key]


def nearest_lexical(reference: Sentence, pool: list[int], taken: set[int], files: VectorStore,
                    context: SearchContext, pools: dict[object, tuple[LexicalPool, np.ndarray]]
                    ) -> list[tuple[Sentence, float]]:
    """The `dense_lexical_k` pairable sentences of the pool not `taken`, with a vector, of the
    highest TF-IDF cosine with the reference."""
    lexical, with_vector = lexical_pool(reference, pool, files, context, pools)
    rest = with_vector[~np.isin(with_vector, list(taken))]
    return first_pairable(reference, context, context.params.dense_lexical_k,
                          lambda n: lexical.nearest(reference.text, rest, n))


def neighbourhood(vectors: np.ndarray, ids: Sequence[int], pool: list[int], files: VectorStore,
                  m: int) -> np.ndarray:
    """Each row's mean cosine to its m nearest pool sentences other than itself."""
    found = files.search(vectors, pool, m + 1)
    means = [np.mean([s for i, s in hits if i != own][:m] or [0.0])
             for own, hits in zip(ids, found, strict=True)]
    return np.asarray(means, dtype=np.float32)


class DenseSource:
    """k nearest neighbours by sentence vector, with cosine and margin; mutual-best keeps a
    pair only where the reference is also among its candidate's `dense_k` nearest."""

    name = "dense"

    def candidates(self, references: Sequence[Sentence],
                   context: SearchContext) -> list[Candidate]:
        """Every reference's nearest valid sentences with cosine and margin, among the
        vectors of its language."""
        if context.vectors is None or not references:
            return []
        params = context.params
        by_language: dict[str, list[Sentence]] = {}
        for r in references:
            if r.id is not None and not r.is_title and pairable(r, params.dense_min_words):
                by_language.setdefault(r.language, []).append(r)
        found: list[Candidate] = []
        for language, of_language in sorted(by_language.items()):
            found += self._language_candidates(of_language, context.vectors(language), context)
        context.counts["dense_candidates"] += len(found)
        return found

    def _language_candidates(self, references: list[Sentence], files: VectorStore,
                             context: SearchContext) -> list[Candidate]:
        params, counts = context.params, context.counts
        held = files.held([r.id for r in references])
        # a sentence stored after the last `parawire embed`
        counts["dense_no_vector"] += int((~held).sum())
        searched = [r for r, has in zip(references, held, strict=True) if has]
        queries = files.get([r.id for r in searched])
        window: dict[object, list[int]] = {}
        pools: dict[object, tuple[LexicalPool, np.ndarray]] = {}
        found: list[Candidate] = []
        by_vector = params.dense_k - min(params.dense_lexical_k, params.dense_k)
        for reference, query in zip(searched, queries, strict=True):
            counts["dense_references"] += 1
            pool = pool_of(reference, context, window)
            hits = nearest_valid(reference, query, pool, files, context, by_vector) \
                if by_vector else []
            if params.dense_lexical_k:
                taken = {s.id for s, _ in hits if s.id is not None}
                lexical = nearest_lexical(reference, pool, taken, files, context, pools)
                counts["dense_lexical"] += len(lexical)
                cosines = files.get([s.id for s, _ in lexical]) @ query if lexical else []
                hits += [(s, float(c)) for (s, _), c in zip(lexical, cosines, strict=True)]
            near_enough = [(s, c) for s, c in hits if c >= params.dense_min_cosine]
            counts["dense_below_cosine"] += len(hits) - len(near_enough)
            hits = near_enough
            if not hits:
                continue
            ids = [reference.id, *(s.id for s, _ in hits)]
            m = max(params.margin_k, params.dense_k if params.mutual_best else 0)
            means = neighbourhood(files.get(ids), ids, pool, files, m)
            mutual = self._mutual(ids, pool, files, params.dense_k) if params.mutual_best \
                else None
            for j, (sentence, cosine) in enumerate(hits, start=1):
                if mutual is not None and not mutual[j]:
                    counts["dense_not_mutual"] += 1
                    continue
                margin = cosine / max((means[0] + means[j]) / 2, 1e-6)
                found.append(Candidate(reference, sentence, self.name, cosine, cosine,
                                       {"cosine": cosine, "margin": float(margin)},
                                       story_of(reference.id, context)))
        return found

    @staticmethod
    def _mutual(ids: list[int | None], pool: list[int], files: VectorStore, k: int) -> list[bool]:
        """Whether the reference (ids[0]) is among each candidate's k nearest."""
        found = files.search(files.get(ids), [*pool, ids[0]], k + 1)
        return [ids[0] in [i for i, _ in hits if i != own][:k]
                for own, hits in zip(ids, found, strict=True)]


CANDIDATE_SOURCES[DenseSource.name] = DenseSource()
