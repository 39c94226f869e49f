"""Algorithm 2 (which side is the input) and pair building."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parawire.aligner.pair_features import swapped
from parawire.records import Direction, Pair, Sentence

if TYPE_CHECKING:
    from parawire.aligner.candidates import Candidate
    from parawire.aligner.grading import Grading


def order_pair(a: Sentence, b: Sentence) -> tuple[Sentence, Sentence]:
    """Algorithm 2: the sentence with more proper nouns is the input.

    Ties go to the smaller id, so a pair found from either side gets the same order
    and symmetric duplicates collapse into one.
    """
    key_a, key_b = (len(a.pn), -(a.id or 0)), (len(b.pn), -(b.id or 0))
    return (a, b) if key_a >= key_b else (b, a)


def orient(a: Sentence, b: Sentence, direction: Direction) -> tuple[Sentence, Sentence, Direction]:
    """The input, the target and the direction read from the input: the covering side is
    the input (its target then adds no fact); equivalent and both-add pairs follow
    Algorithm 2 (order_pair), their direction reads the same either way."""
    if direction == Direction.A_COVERS_B:
        return a, b, direction
    if direction == Direction.B_COVERS_A:
        return b, a, Direction.A_COVERS_B
    source, target = order_pair(a, b)
    return source, target, direction


def graded_pair(run_id: int, candidate: Candidate, grading: Grading,
                features: dict[str, float]) -> Pair:
    """A graded candidate's Pair, oriented (orient), with its grade, direction, grade
    probabilities and features read from the input's side."""
    source, target, direction = orient(candidate.reference, candidate.sentence,
                                       grading.direction)
    assert source.id is not None and target.id is not None
    flipped = source is not candidate.reference
    return Pair(
        run_id=run_id, input_sentence_id=source.id, target_sentence_id=target.id,
        score=candidate.score, raw_score=candidate.raw_score,
        shared_pn=len(source.pn & target.pn), shared_cn=len(source.cn & target.cn),
        probability=round(sum(grading.probabilities[3:]), 4),
        features=swapped(features) if flipped else dict(features),
        story_id=candidate.story_id, source=candidate.source, grade=grading.grade,
        direction=direction.value, grade_probabilities=list(grading.probabilities))


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
