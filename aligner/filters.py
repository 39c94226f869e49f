"""Filters for candidate pairs that would teach a paraphrase model nothing (pure).

Each filter names the reason a pair is dropped, and a run counts the pairs per reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from parawire.aligner.signals import numbers
from parawire.records import Sentence

DATE_LABELS = frozenset({"DATE"})


def dates(sentence: Sentence) -> frozenset[str]:
    """The case-folded texts of the sentence's date entities."""
    return frozenset(text.casefold() for text, label in sentence.entities if label in DATE_LABELS)


def conflicting(a: frozenset[str], b: frozenset[str]) -> bool:
    """Both sides state some, and neither side's are all among the other's."""
    return bool(a and b and not (a <= b or b <= a))


def drop_reason(a: Sentence, b: Sentence, signals: Mapping[str, float], *,
                max_quote_share: float, max_novel_share: float,
                drop_mismatches: bool) -> str | None:
    """Why the pair (a, b) teaches nothing, or None to keep it.

    quote_copy: the quotation both sides share covers at least `max_quote_share` of the
    shorter sentence's words (only the attribution differs); number/date/entity_mismatch:
    both sides state figures, dates or entity keys and neither side's set holds the other's
    ("two" against "three", "Monday" against "Tuesday"); partial: more than
    `max_novel_share` of one side's content words are missing from the other (it adds a
    clause or a name)."""
    if signals["quote_share"] >= max_quote_share:
        return "quote_copy"
    if drop_mismatches:
        if conflicting(numbers(a), numbers(b)):
            return "number_mismatch"
        if conflicting(dates(a), dates(b)):
            return "date_mismatch"
        if conflicting(a.pn, b.pn):
            return "entity_mismatch"
    if signals["novel_max"] > max_novel_share:
        return "partial"
    return None
