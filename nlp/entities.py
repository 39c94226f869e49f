"""Proper nouns as entities: a name's words without titles, its key, and within-article
resolution of short mentions to the full name seen earlier.

A name unit (an entity span or a run of PROPN tokens) becomes its words: case-folded
surface words without leading articles, possessive endings, dots or hyphens ("Al-Ghozi's"
gives `al ghozi`). Titles and honorifics before a person's name are dropped ("Mr", "Sen.",
"Defence Minister"); a unit made only of titles, or only of weekdays, months and numbers,
is no name at all. Within an article, a mention whose words end (or, from two words on,
begin) an earlier name is that name: "Dotson" after "Carlton Dotson", "Kings County
Hospital" after "Kings County Hospital Center". A person's key is the family name of the
full name it resolves to, since news names a person by family name after the first mention
and other outlets may never give the first name; other entities are keyed by their full
words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parawire.nlp.resources import LanguageResources
from parawire.textnorm import fold_typography

PERSON_LABELS = frozenset({"PERSON", "PER"})
# Labels of a run of PROPN tokens outside every entity span.
UNLABELLED = ""
# Compared with typography folded (fold_typography: "’s" is "'s").
_POSSESSIVES = ("'s", "'")
_DROPPED_LEADING_POS = frozenset({"DET", "PUNCT", "PART"})


@dataclass(frozen=True, slots=True)
class Mention:
    """A name unit as entity words, with its entity label ("" for a bare PROPN run)."""

    words: tuple[str, ...]
    label: str

    @property
    def is_person_like(self) -> bool:
        """Whether the unit may name a person (a PERSON entity or an unlabelled run)."""
        return self.label in PERSON_LABELS or self.label == UNLABELLED


def name_words(tokens: Iterable[Any]) -> list[str]:
    """A unit's case-folded words, typography folded ("O’Brien" is "O'Brien"): no leading
    articles, possessive endings, dots or punctuation; hyphenated words split ("Al-Ghozi"
    gives al, ghozi)."""
    parts = list(tokens)
    while parts and parts[0].pos_ in _DROPPED_LEADING_POS:
        parts = parts[1:]
    words: list[str] = []
    for token in parts:
        text = fold_typography(token.text).casefold()
        if token.tag_ == "POS" or text in _POSSESSIVES:
            continue
        text = text.removesuffix("'s")
        for piece in text.split("-"):
            piece = piece.replace(".", "")
            if any(ch.isalnum() for ch in piece):
                words.append(piece)
    return words


def mention(tokens: Sequence[Any], label: str, resources: LanguageResources) -> Mention | None:
    """The entity words of a name unit, or None when it is no name (only titles, only
    calendar words and numbers)."""
    words = name_words(tokens)
    if all(w in resources.calendar_words or w.isdigit() for w in words):
        return None
    if _title_length(words, resources) == len(words):
        return None
    if label in PERSON_LABELS or label == UNLABELLED:
        while (size := _title_length(words, resources)) and size < len(words):
            words = words[size:]
    return Mention(tuple(words), label)


def _title_length(words: Sequence[str], resources: LanguageResources) -> int:
    """How many leading words form a title (the longest one), 0 for none."""
    for size in range(min(len(words), resources.longest_title), 0, -1):
        if " ".join(words[:size]) in resources.titles:
            return size
    return 0


class ArticleEntities:
    """Resolves an article's mentions, in reading order, to entity keys."""

    def __init__(self) -> None:
        # The distinct full names, in order of their latest use as a name of their own (a
        # repeated name moves to the end: a long article repeating its names stays linear).
        self._seen: dict[Mention, None] = {}

    def key(self, found: Mention) -> str:
        """The entity key of the next mention of the article."""
        full = self._resolve(found)
        if full is found:
            self._seen.pop(found, None)
            self._seen[found] = None
        if full.label in PERSON_LABELS or (full.is_person_like and found.label in PERSON_LABELS):
            return full.words[-1]
        return " ".join(full.words)

    def _resolve(self, found: Mention) -> Mention:
        size = len(found.words)
        for earlier in reversed(self._seen):
            if len(earlier.words) <= size:
                continue
            if earlier.words[-size:] == found.words and (
                    size > 1 or (found.is_person_like and earlier.is_person_like)):
                return earlier
            if size > 1 and earlier.words[:size] == found.words:
                return earlier
        return found

    def keys(self, mentions: Iterable[Mention | None]) -> list[str]:
        """The sorted distinct entity keys of one sentence's mentions."""
        return sorted({self.key(m) for m in mentions if m is not None})
