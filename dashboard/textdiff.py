"""Word-level differences between the two sides of a pair, for highlighting."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

_PIECES = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text and whether it differs from the other side."""

    text: str
    changed: bool


def _pieces(text: str) -> list[str]:
    return _PIECES.findall(text)


def _segments(pieces: list[str], changed: list[bool]) -> list[Segment]:
    """Adjacent pieces with the same flag merged; a space is marked only between two
    marked words, so "signed off" is one highlight but no highlight starts with a space."""
    segments: list[Segment] = []
    for i, piece in enumerate(pieces):
        flag = changed[i]
        if piece.isspace():
            flag = 0 < i < len(pieces) - 1 and changed[i - 1] and changed[i + 1]
        if segments and segments[-1].changed == flag:
            segments[-1] = Segment(segments[-1].text + piece, flag)
        else:
            segments.append(Segment(piece, flag))
    return segments


def _moved(pieces: list[str], changed: list[bool], other: set[str]) -> list[bool]:
    """Unmark words the other side has somewhere else: a name (or any word) that only
    moved is an anchor both sides share, not a difference."""
    return [flag and not (piece[:1].isalnum() and piece.casefold() in other)
            for piece, flag in zip(pieces, changed, strict=True)]


def diff_sides(left: str, right: str) -> tuple[list[Segment], list[Segment]]:
    """Both texts cut into segments, words absent from the other side marked changed (in
    the same order by the longest common subsequence; a word found elsewhere on the other
    side moved, and is not marked)."""
    a, b = _pieces(left), _pieces(right)
    folded_a, folded_b = [p.casefold() for p in a], [p.casefold() for p in b]
    matcher = SequenceMatcher(None, folded_a, folded_b, autojunk=False)
    changed_a, changed_b = [True] * len(a), [True] * len(b)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            changed_a[block.a + k] = False
            changed_b[block.b + k] = False
    changed_a = _moved(a, changed_a, set(folded_b))
    changed_b = _moved(b, changed_b, set(folded_a))
    return _segments(a, changed_a), _segments(b, changed_b)
