"""Filters for candidate pairs that would teach a paraphrase model nothing (pure).

Each filter names the reason a pair is dropped, and a run counts the pairs per reason.
"""

from __future__ import annotations

from parawire.aligner.signals import numbers
from parawire.pairable import ONE_SIDED_RULES, QUOTATION_MARKS
from parawire.records import Sentence
from parawire.textnorm import word_diff, words

DATE_LABELS = frozenset({"DATE"})


def dates(sentence: Sentence) -> frozenset[str]:
    """The words of the sentence's date entities ("last Monday" gives last, monday)."""
    return frozenset(word for text, label in sentence.entities if label in DATE_LABELS
                     for word in words(text))


def conflicting(a: frozenset[str], b: frozenset[str]) -> bool:
    """Both sides state some, and neither side's are all among the other's."""
    return bool(a and b and not (a <= b or b <= a))


def disjoint(a: frozenset[str], b: frozenset[str]) -> bool:
    """Both sides state some, and they share none."""
    return bool(a and b and not a & b)


QUESTION_MARKS = ("?", "？")


def is_question(sentence: Sentence) -> bool:
    """The sentence itself asks: a question mark at its very end, or the whole sentence is
    one quotation that ends asking ("“When did you become aware of the meeting?”"). A
    quoted question that closes a statement ("He asked, “Why now?”", a headline's
    "…: ‘Can I Kiss You?’") does not count."""
    text = sentence.text.strip()
    if text.endswith(QUESTION_MARKS):
        return True
    quoted = text[:1] in QUOTATION_MARKS and text[-1:] in QUOTATION_MARKS
    return quoted and text.rstrip("".join(QUOTATION_MARKS)).endswith(QUESTION_MARKS)


def exact_rule(a: Sentence, b: Sentence, max_copy_edits: int) -> str | None:
    """The exact rule a pair breaks, or None: a rule one side breaks whatever its partner
    (fragment, quote_piece, link_line, unterminated: parawire/pairable.py), question_mismatch (one side
    asks, the other states), near_copy (the texts differ in at most `max_copy_edits` words:
    the pair teaches copying), deletion_copy (one side is the other with words taken out,
    none replaced: it teaches deleting, not rewording), number_conflict (both sides state
    figures and neither side's hold the other's: "two" against "three"), date_conflict (both
    sides name dates and share none: "Monday" against "Tuesday").
    Everything less certain is the pair model's to weigh. Before them all, title_with_text:
    a title pairs only with another title (a headline's register is its own)."""
    if a.is_title != b.is_title:
        return "title_with_text"
    for name, breaks in ONE_SIDED_RULES:
        if breaks(a) or breaks(b):
            return name
    if is_question(a) != is_question(b):
        return "question_mismatch"
    diff = word_diff(a.text, b.text)
    if diff.edits <= max_copy_edits:
        return "near_copy"
    if diff.only_added:
        return "deletion_copy"
    if conflicting(numbers(a), numbers(b)):
        return "number_conflict"
    if disjoint(dates(a), dates(b)):
        return "date_conflict"
    return None
