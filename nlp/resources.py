"""Per-language word lists that a user edits for a new language: nlp/languages/<lang>.toml.

Keys (each optional): `stop_words` (never common nouns), `titles` (honorifics and offices
before a name, never names) and `calendar_words` (weekdays and months, never proper nouns).
A language without a file has empty lists. Topic keyword groups are the crawler's
(crawler/topics.toml, a table per language).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from parawire.config import read_toml_file
from parawire.errors import ParawireError

LANGUAGES_DIR = Path(__file__).with_name("languages")
_LISTS = ("stop_words", "titles", "calendar_words")


@dataclass(frozen=True)
class LanguageResources:
    """One language's word lists, case-folded."""

    language: str
    stop_words: frozenset[str] = frozenset()
    titles: frozenset[str] = frozenset()
    calendar_words: frozenset[str] = frozenset()

    @cached_property
    def longest_title(self) -> int:
        """The number of words of the longest title (multi-word titles are phrases); worked
        out once, as every name mention asks for it."""
        return max((len(title.split()) for title in self.titles), default=0)


@lru_cache(maxsize=32)
def language_resources(language: str, folder: Path = LANGUAGES_DIR) -> LanguageResources:
    """The resources of `language` from `folder`/<language>.toml (empty when there is none);
    a malformed file raises ParawireError naming it and the key."""
    path = folder / f"{language}.toml"
    if not path.is_file():
        return LanguageResources(language)
    data = read_toml_file(path, "language file")
    lists = {key: frozenset(word.casefold() for word in _words(path, key, data.get(key, [])))
             for key in _LISTS}
    return LanguageResources(language, **lists)


def _words(path: Path, key: str, value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        raise ParawireError(f"{path}: {key!r} must be a list of words")
    return value
