"""Brute-force Algorithm 1 over all sentence pairs (proper nouns compared as entity keys,
`Sentence.pn`): the test oracle for the engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parawire.aligner.constraints import is_paraphrase, is_reference
from parawire.aligner.params import AlignParams
from parawire.records import Sentence
from parawire.textnorm import verbatim_key


def within_filters(reference: Sentence, candidate: Sentence, params: AlignParams) -> bool:
    """The query's filters: language, date window, topic, outlet, other article, not verbatim."""
    if candidate.language != reference.language:
        return False
    if candidate.article_id == reference.article_id:
        return False
    if verbatim_key(candidate.text) == verbatim_key(reference.text):
        return False
    if params.same_topic and candidate.topic != reference.topic:
        return False
    if params.exclude_same_outlet and candidate.source == reference.source:
        return False
    if reference.published is not None:
        if candidate.published is None:
            return False
        if abs((candidate.published - reference.published).days) > params.date_window_days:
            return False
    return True


def brute_force_candidates(sentences: Sequence[Sentence], params: AlignParams,
                           references: Sequence[Sentence] | None = None,
                           partners: Mapping[int, tuple[int, list[int]]] | None = None
                           ) -> set[tuple[int, int]]:
    """Every (reference id, candidate id) that Algorithm 1 accepts, by exhaustive comparison
    of each reference (all sentences, or those given) with every sentence; references below
    min_pn proper nouns (the sparse rule) pair only with candidates that hold min_pn. With
    `partners` (a search within stories), a reference pairs only with its story's sentences
    from other outlets, and a reference in no story with none. A title is no reference (the
    titles source reads titles, aligner/title_source.py)."""
    c = params.constraints
    found: set[tuple[int, int]] = set()
    for reference in sentences if references is None else references:
        if reference.is_title or not is_reference(reference.pn, reference.cn, c):
            continue
        allowed = None if partners is None else set(partners.get(reference.id or 0, (0, []))[1])
        for candidate in sentences:
            if candidate is reference or not within_filters(reference, candidate, params):
                continue
            if allowed is not None and candidate.id not in allowed:
                continue
            if is_paraphrase(reference.pn, reference.cn, candidate.pn, candidate.cn, c):
                assert reference.id is not None and candidate.id is not None
                found.add((reference.id, candidate.id))
    return found
