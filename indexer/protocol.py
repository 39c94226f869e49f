"""The SentenceIndex protocol and the engine-neutral HCSSS query it answers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from parawire.records import Sentence


@dataclass(frozen=True, slots=True)
class HcsssQuery:
    """A highly constrained search for one reference sentence (DESIGN.md, step 3).

    Hits must hold every proper noun, at least `min_cn_matches` of the common nouns,
    the language, a day in [day_from, day_to] (when given) and the topic (when given);
    they must not come from `exclude_article_id`, nor from `exclude_source` (when given),
    nor be a verbatim copy (`exclude_vkey`).
    `text_terms` only rank the hits (BM25).
    """

    proper_nouns: tuple[str, ...]
    common_nouns: tuple[str, ...]
    min_cn_matches: int
    text_terms: tuple[str, ...]
    language: str
    exclude_article_id: int
    exclude_vkey: str
    day_from: int | None = None
    day_to: int | None = None
    topic: str | None = None
    exclude_source: str | None = None
    limit: int = 1000


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: a sentence id and the engine's raw score."""

    sentence_id: int
    score: float


class SentenceIndex(Protocol):
    """What the aligner and the CLI need from a search engine."""

    def add(self, sentences: Iterable[Sentence]) -> int:
        """Index sentences (replacing any with the same id); returns how many."""
        ...

    def commit(self) -> None:
        """Make everything added so far searchable and durable."""
        ...

    def search(self, query: HcsssQuery) -> list[Hit]:
        """Hits of a HCSSS query, best first."""
        ...

    def score_of(self, sentence_id: int, text_terms: tuple[str, ...]) -> float:
        """The ranking score `text_terms` give to one sentence (0 when absent)."""
        ...

    def max_sentence_id(self) -> int:
        """The largest sentence id indexed (0 when empty)."""
        ...

    def count(self) -> int:
        """How many sentences the index holds."""
        ...

    def clear(self) -> None:
        """Remove every sentence."""
        ...
