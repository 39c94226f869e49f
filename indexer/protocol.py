"""The SentenceIndex protocol and the engine-neutral HCSSS query it answers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from parawire.records import Sentence


@dataclass(frozen=True, slots=True)
class HcsssQuery:
    """A highly constrained search for one reference sentence (DESIGN.md, step 3).

    Hits must hold every proper noun, at least `min_pn_count` proper nouns in all (it
    constrains only a reference with fewer, sparser than its candidates must be), at least
    `min_cn_matches` of the common nouns, the language, a day in [day_from, day_to] (when
    given) and the topic (when given);
    they must not come from `exclude_article_id`, nor from `exclude_source` (when given),
    nor be a verbatim copy (`exclude_vkey`); with `among_ids`, they must be one of those
    sentences (a search within a story: its sentences from other outlets).
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
    min_pn_count: int = 0
    among_ids: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result: a sentence id and the engine's raw score."""

    sentence_id: int
    score: float


@dataclass(frozen=True, slots=True)
class IndexStats:
    """What an index holds: sentence counts in all and by language, topic, outlet and day.

    Days are ISO dates; sentences without a date count in `total` but under no day.
    """

    total: int
    by_language: dict[str, int] = field(default_factory=dict)
    by_topic: dict[str, int] = field(default_factory=dict)
    by_source: dict[str, int] = field(default_factory=dict)
    by_day: dict[str, int] = field(default_factory=dict)


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

    def sentence_ids(self, page_size: int = 1000) -> Iterator[int]:
        """Every indexed sentence id in ascending order, read a page at a time."""
        ...

    def stats(self) -> IndexStats:
        """Counts by language, topic, outlet and day."""
        ...
