"""Filters for candidate pairs that would teach a paraphrase model nothing (pure).

Each filter names the reason a pair is dropped, and a run counts the pairs per reason.
"""

from __future__ import annotations

import re

from parawire.aligner.signals import numbers
from parawire.records import Sentence
from parawire.textnorm import word_diff, words

DATE_LABELS = frozenset({"DATE"})
VERB_TAGS = frozenset({"VERB", "AUX"})
# A sentence ending in one of these stops mid-clause (a split before a quotation, a list).
OPEN_ENDINGS = (",", ";", ":", "—", "–")
CLOSING_QUOTES = "\"'”’»)] "


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


def fragment(sentence: Sentence) -> bool:
    """A piece of a sentence, not a claim: a full stop after no verb (where it has tags:
    "The Fox News host Tucker Carlson."; a headline has no full stop, and its title-case
    verbs are often tagged as names), or it stops on a comma, colon or dash ("As Roberts
    wrote at the conclusion of his opinion,")."""
    text = sentence.text.rstrip(CLOSING_QUOTES)
    verbless = bool(sentence.pos) and not VERB_TAGS & set(sentence.pos)
    return (verbless and text.endswith(".")) or text.endswith(OPEN_ENDINGS)


# Double quotation marks of every script's pairs ("…", “…”, „…“, «…», »…«): a sentence
# holding an odd number of them opens or closes a quotation that runs on in another sentence.
QUOTATION_MARKS = frozenset('"“”„«»')


def quote_piece(sentence: Sentence) -> bool:
    """A piece of a quotation that runs over several sentences: its double quotation marks
    do not pair up (`"They will be charged.`, `But this isn't about that.”`), so it is
    one sentence of someone's longer words, cut from what frames it."""
    return sum(ch in QUOTATION_MARKS for ch in sentence.text) % 2 == 1


# A web address: a scheme or "www.", or a host name followed by a path ("pic.twitter.com/x").
WEB_ADDRESS = re.compile(r"(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S+",
                         re.IGNORECASE)


# The label of a line pointing to other content: "More: …", "READ MORE: …", "See also: …",
# "Related: …", "Watch: …" (about 3,300 lines of the AllSides archive; no pairs-dev sentence).
POINTER_LABEL = re.compile(r"\W*(?:read(?: more)?|more|see also|also read|related|watch|listen)"
                           r"\s*:", re.IGNORECASE)

# A related article's headline closed by its link's words, with no full stop ("Can the US
# break its cycle of gun control failure? Read more": 899 lines of the archive, none in
# pairs-dev); prose that ends on "read more." keeps its full stop.
POINTER_END = re.compile(r"\b(?:Read [Mm]ore|READ MORE)\s*$")


def link_line(sentence: Sentence) -> bool:
    """A line that points elsewhere, not a claim of the article: it holds a web address (an
    embedded post's `pic.twitter.com/… — name (@handle) date`), opens with a pointer label
    (a "More: …" line: another article's headline) or ends on "Read more"."""
    text = sentence.text
    return (WEB_ADDRESS.search(text) is not None or POINTER_LABEL.match(text) is not None
            or POINTER_END.search(text) is not None)


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
    """The exact rule a pair breaks, or None: fragment (either side is a piece of a
    sentence), quote_piece (either side is one sentence of a longer quotation), link_line
    (either side holds a web address: an embedded post or a link),
    question_mismatch (one side asks, the other states), near_copy (the texts
    differ in at most `max_copy_edits` words: the pair teaches copying), deletion_copy (one
    side is the other with words taken out, none replaced: it teaches deleting, not
    rewording), number_conflict
    (both sides state figures and neither side's hold the other's: "two" against "three"),
    date_conflict (both sides name dates and share none: "Monday" against "Tuesday").
    Everything less certain is the pair model's to weigh."""
    if fragment(a) or fragment(b):
        return "fragment"
    if quote_piece(a) or quote_piece(b):
        return "quote_piece"
    if link_line(a) or link_line(b):
        return "link_line"
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
