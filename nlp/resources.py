"""Per-language word lists for sentence features, read from nlp/languages/<lang>.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from parawire.errors import ParawireError

LANGUAGES_DIR = Path(__file__).parent / "languages"


@dataclass(frozen=True, slots=True)
class LanguageResources:
    """A language's word lists (lower case): titles and honorifics written before a name
    (multi-word ones as space-separated phrases), and calendar words (weekdays, months)."""

    titles: frozenset[str] = frozenset()
    calendar_words: frozenset[str] = frozenset()

    @property
    def longest_title(self) -> int:
        """The number of words of the longest title."""
        return max((len(title.split()) for title in self.titles), default=0)


@lru_cache(maxsize=32)
def language_resources(language: str) -> LanguageResources:
    """The word lists of a language (empty for a language without a file); keys the file
    has besides these are left to their own readers."""
    path = LANGUAGES_DIR / f"{language}.toml"
    if not path.is_file():
        return LanguageResources()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ParawireError(f"language file {path} is not valid TOML: {exc}") from None
    return LanguageResources(titles=_words(path, data, "titles"),
                             calendar_words=_words(path, data, "calendar_words"))


def _words(path: Path, data: dict, key: str) -> frozenset[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
        raise ParawireError(f"language file {path}: '{key}' must be a list of strings")
    return frozenset(word.casefold() for word in value)
