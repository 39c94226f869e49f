"""What a sentence states that pair features and exact rules compare (pure): its figures and
its quoted words."""

from __future__ import annotations

import re

from parawire.records import Sentence
from parawire.textnorm import words

_QUOTE_MARK = re.compile(r"[\"“”«»]")
_OPENING, _CLOSING = "“«", "”»"
_DIGITS = re.compile(r"\d")
_NUMBER_WORDS = frozenset({
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "million",
    "billion", "trillion", "dozen", "half",
})


def numbers(sentence: Sentence) -> frozenset[str]:
    """The figures a sentence states: tokens with digits (without separators and signs) and
    number words."""
    found = set()
    for token in sentence.tokens or sentence.text.split():
        text = token.casefold().strip(".,;:()")
        if _DIGITS.search(text):
            found.add(re.sub(r"[^\d.]", "", text).rstrip("."))
        elif text in _NUMBER_WORDS:
            found.add(text)
    return frozenset(found)


def quoted_words(text: str) -> frozenset[str]:
    """The words inside quotation marks. A sentence may hold only one end of a quotation
    (the segmenter cut it): a closing mark quotes from the start, an opening one to the end."""
    text = text.replace("''", '"').replace("``", '"')
    spans: list[str] = []
    start: int | None = None
    for mark in _QUOTE_MARK.finditer(text):
        at, char = mark.start(), mark.group()
        before = text[at - 1] if at else " "
        opening = char in _OPENING or (char not in _CLOSING and (before.isspace() or before in "([—-"))
        if opening and start is None:
            start = at + 1
        elif not opening:
            spans.append(text[start or 0:at])
            start = None
    if start is not None:
        spans.append(text[start:])
    return frozenset(w for span in spans for w in words(span))
