"""Turns a reference sentence into the engine-neutral HCSSS query."""

from __future__ import annotations

from parawire.aligner.constraints import required_cn_matches
from parawire.aligner.params import AlignParams
from parawire.indexer import HcsssQuery
from parawire.records import Sentence
from parawire.textnorm import verbatim_key, words


def ranking_terms(sentence: Sentence) -> tuple[str, ...]:
    """The distinct words of a sentence, used as the scored BM25 "should" clause."""
    return tuple(dict.fromkeys(words(sentence.text)))


def build_query(reference: Sentence, params: AlignParams) -> HcsssQuery | None:
    """The HCSSS query for a reference (None when it cannot have any candidate)."""
    needed = required_cn_matches(len(reference.cn), params.constraints)
    if needed is None:
        return None
    day_from = day_to = None
    if reference.published is not None:
        day = reference.published.toordinal()
        day_from, day_to = day - params.date_window_days, day + params.date_window_days
    return HcsssQuery(
        proper_nouns=tuple(sorted(reference.pn)),
        common_nouns=tuple(sorted(reference.cn)),
        min_cn_matches=needed,
        text_terms=ranking_terms(reference),
        language=reference.language,
        exclude_article_id=reference.article_id,
        exclude_vkey=verbatim_key(reference.text),
        day_from=day_from,
        day_to=day_to,
        topic=reference.topic if params.same_topic else None,
        exclude_source=reference.source if params.exclude_same_outlet else None,
        limit=params.max_hits,
        min_pn_count=params.min_pn,
    )
