"""Filters for candidate pairs that would teach a paraphrase model nothing (pure).

Each filter names the reason a pair is dropped, and a run counts the pairs per reason.
"""

from __future__ import annotations

from collections.abc import Mapping

from parawire.aligner.signals import content_words, numbers
from parawire.records import Sentence
from parawire.textnorm import token_jaccard, word_diff, words

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


def near_verbatim(a: str, b: str, *, max_token_jaccard: float, min_word_edits: int,
                  min_edit_share: float) -> bool:
    """The two texts are near-verbatim copies: their word sets have a Jaccard of at least
    `max_token_jaccard`, or fewer words are inserted, deleted or replaced between them than
    `min_edit_share` of the shorter text's words, and never fewer than `min_word_edits` (a
    three-word rewording is a paraphrase in a 12-word sentence, a copy edit in a 30-word one),
    or one is the other with words only added (an attribution, a name, a clause: nothing is
    reworded)."""
    if token_jaccard(a, b) >= max_token_jaccard:
        return True
    shorter = min(len(words(a)), len(words(b)))
    diff = word_diff(a, b)
    return diff.edits < max(min_word_edits, min_edit_share * shorter) or diff.only_added


def exact_rule(a: Sentence, b: Sentence, max_copy_edits: int) -> str | None:
    """The exact rule a pair breaks, or None: near_copy (the texts differ in at most
    `max_copy_edits` words: the pair teaches copying), number_conflict (both sides state
    figures and neither side's hold the other's: "two" against "three"), date_conflict (both
    sides name dates and share none: "Monday" against "Tuesday"). Everything less certain
    is the pair model's to weigh."""
    if word_diff(a.text, b.text).edits <= max_copy_edits:
        return "near_copy"
    if conflicting(numbers(a), numbers(b)):
        return "number_conflict"
    if disjoint(dates(a), dates(b)):
        return "date_conflict"
    return None


def adds_to(a: Sentence, b: Sentence, max_added_words: int) -> bool:
    """One side adds to the other: it has more than `max_added_words` content words the other
    lacks beyond those the other has that it lacks (a clause, a name or a date on top of a
    statement both make)."""
    words_a, words_b = content_words(a), content_words(b)
    return abs(len(words_a - words_b) - len(words_b - words_a)) > max_added_words


def drop_reason(a: Sentence, b: Sentence, signals: Mapping[str, float], *,
                max_quote_share: float, max_novel_share: float, max_added_words: int,
                drop_mismatches: bool) -> str | None:
    """Why the pair (a, b) teaches nothing, or None to keep it.

    quote_copy: the quotation both sides share covers at least `max_quote_share` of the
    shorter sentence's words (only the attribution differs); number_mismatch: both sides
    state figures and neither side's hold the other's ("two" against "three");
    date/entity_mismatch: both sides name dates or entities and share none of them ("Monday"
    against "Tuesday"; "Monday" and "last Monday" agree); partial: more than
    `max_novel_share` of one side's content words are missing from the other, or one side
    has more than `max_added_words` more content words of its own than the other (it adds a
    clause, a name or a date)."""
    if signals["quote_share"] >= max_quote_share:
        return "quote_copy"
    if drop_mismatches:
        if conflicting(numbers(a), numbers(b)):
            return "number_mismatch"
        if disjoint(dates(a), dates(b)):
            return "date_mismatch"
        if disjoint(a.pn, b.pn):
            return "entity_mismatch"
    if signals["novel_max"] > max_novel_share or adds_to(a, b, max_added_words):
        return "partial"
    return None
