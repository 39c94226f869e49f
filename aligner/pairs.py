"""Algorithm 2 (which side is the input) and pair building."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parawire.records import Pair, Sentence

if TYPE_CHECKING:
    from parawire.aligner.candidates import Candidate


def order_pair(a: Sentence, b: Sentence) -> tuple[Sentence, Sentence]:
    """Algorithm 2: the sentence with more proper nouns is the input.

    Ties go to the smaller id, so a pair found from either side gets the same order
    and symmetric duplicates collapse into one.
    """
    key_a, key_b = (len(a.pn), -(a.id or 0)), (len(b.pn), -(b.id or 0))
    return (a, b) if key_a >= key_b else (b, a)


def make_pair(run_id: int, candidate: Candidate, probability: float | None = None,
              signals: dict[str, float] | None = None) -> Pair:
    """A candidate's Pair ordered by Algorithm 2, with its reason counts, story and source
    (and the scorer's probability and the signals it read)."""
    source, target = order_pair(candidate.reference, candidate.sentence)
    assert source.id is not None and target.id is not None
    return Pair(
        run_id=run_id,
        input_sentence_id=source.id,
        target_sentence_id=target.id,
        score=candidate.score,
        raw_score=candidate.raw_score,
        shared_pn=len(source.pn & target.pn),
        shared_cn=len(source.cn & target.cn),
        probability=probability,
        features=dict(signals or {}),
        story_id=candidate.story_id,
        source=candidate.source,
    )
