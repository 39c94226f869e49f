"""The records that flow between stages (DESIGN.md, "Records")."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, NamedTuple


class ArticleOutcome(enum.StrEnum):
    """What became of an article handed over for storing."""

    STORED = "stored"
    NEAR_DUPLICATE = "near_duplicate"
    DUPLICATE_URL = "duplicate_url"
    DUPLICATE_CONTENT = "duplicate_content"


@dataclass(slots=True)
class Article:
    """One news article as the crawler stored it."""

    url: str
    source: str
    language: str
    title: str
    text: str
    published: date | None
    topic: str = "other"
    canonical_url: str = ""
    author: str = ""
    crawled_at: datetime | None = None
    content_hash: str = ""
    syndicated_of: int | None = None
    id: int | None = None


class ArticleRef(NamedTuple):
    """Where a sentence came from, for attribution: its article's address, outlet, title and
    publication day."""

    id: int
    url: str
    source: str
    title: str
    published: date | None


class FingerprintMatch(NamedTuple):
    """A stored article's fingerprint: its id, its SimHash, and the article it is a copy of
    (None for an original)."""

    article_id: int
    fingerprint: int
    syndicated_of: int | None


@dataclass(slots=True)
class Collocation:
    """A multi-word unit (noun chunk, name) with its lemma and POS pattern."""

    text: str
    lemma: str
    pos: str


@dataclass(slots=True)
class OutletStats:
    """What the crawler has seen of one outlet: its pages, and on how many of them each
    body line (by key) and each title prefix/suffix came."""

    pages: int = 0
    lines: Counter[str] = field(default_factory=Counter)
    affixes: Counter[str] = field(default_factory=Counter)

    def add(self, other: OutletStats) -> None:
        """Add another outlet's counts to these."""
        self.pages += other.pages
        self.lines.update(other.lines)
        self.affixes.update(other.affixes)


@dataclass(slots=True)
class CollocationCounts:
    """Counts over sentences for statistical collocations: each (case-folded) lemma, each
    candidate pair of adjacent lemmas, and how many lemmas were counted in all."""

    words: Counter[str] = field(default_factory=Counter)
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    tokens: int = 0

    def add(self, other: CollocationCounts) -> None:
        """Add another count to this one."""
        self.words.update(other.words)
        self.pairs.update(other.pairs)
        self.tokens += other.tokens


# The position of an article's title among its sentences (its text's sentences count from 0).
TITLE_POSITION = -1


@dataclass(slots=True)
class Sentence:
    """One annotated sentence, with the article fields the aligner filters on; the
    article's title is one too, at TITLE_POSITION."""

    article_id: int
    position: int
    text: str
    tokens: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    pos: list[str] = field(default_factory=list)
    entities: list[tuple[str, str]] = field(default_factory=list)
    proper_nouns: list[str] = field(default_factory=list)
    common_nouns: list[str] = field(default_factory=list)
    collocations: list[Collocation] = field(default_factory=list)
    language: str = ""
    topic: str = ""
    published: date | None = None
    source: str = ""
    # The canonical keys of the sentence's names (`proper_nouns` keeps their surface forms).
    entity_keys: list[str] = field(default_factory=list)
    id: int | None = None

    @property
    def is_title(self) -> bool:
        """The article's title (whole, as the outlet wrote it), not a sentence of its text."""
        return self.position == TITLE_POSITION

    @property
    def pn(self) -> frozenset[str]:
        """The proper-noun set PN(s) of Algorithm 1: the entity keys."""
        return frozenset(self.entity_keys)

    @property
    def cn(self) -> frozenset[str]:
        """The common-noun set CN(s)."""
        return frozenset(self.common_nouns)


class SentenceNouns(NamedTuple):
    """A stored sentence's id with its entity keys, common nouns and position (what reference
    selection reads)."""

    id: int
    entity_keys: list[str]
    common_nouns: list[str]
    position: int = 0

    @property
    def is_title(self) -> bool:
        """The article's title (see `Sentence.is_title`)."""
        return self.position == TITLE_POSITION


@dataclass(slots=True)
class Run:
    """A stage run: its parameters, its state (running, finished, interrupted or failed)
    and its counts."""

    parameters: dict[str, Any]
    status: str = "running"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    counts: dict[str, int] = field(default_factory=dict)
    id: int | None = None
    # Why it failed or was interrupted (status "failed" or "interrupted"); for a finished
    # crawl, what an operator should know (some outlets failed, or a quiet day); else empty.
    reason: str = ""


@dataclass(slots=True)
class AlignmentRun(Run):
    """One alignment run."""


class Reach(enum.StrEnum):
    """How far a crawl run got with an outlet."""

    OK = "ok"  # every listing was fetched and read
    PARTIAL = "partial"  # some listings failed, others were read
    FAILED = "failed"  # nothing could be fetched: every listing (or every page) failed


@dataclass(slots=True)
class OutletHealth:
    """How one outlet fared in a crawl run, and its record up to that run: when a run last
    reached it, on how many days (UTC) its runs have failed since, and its latest error."""

    state: Reach
    # The run's first failure of the outlet, as one line naming it, the listing or host and
    # the error class, with the tries ("bbc-news: host feeds.bbci.co.uk could not be
    # resolved (3 tries)"); empty when nothing failed.
    reason: str = ""
    # That failure's error class, as the crawl counts it (http_503, CannotResolveHostError).
    error: str = ""
    listings: int = 0  # feeds, sitemaps and section pages fetched and read
    listings_failed: int = 0
    pages: int = 0  # article pages fetched
    pages_failed: int = 0
    last_success: datetime | None = None
    failed_days: int = 0
    last_error: str = ""
    last_error_at: datetime | None = None


@dataclass(slots=True)
class CrawlRun(Run):
    """One crawl run, with how each of its outlets fared (empty for an ingest, and for a run
    that did not end by itself)."""

    outlets: dict[str, OutletHealth] = field(default_factory=dict)

    @property
    def partial(self) -> bool:
        """A finished run in which some outlets or listings failed."""
        return self.status == "finished" and any(
            health.state is not Reach.OK for health in self.outlets.values())

    @property
    def failed_outlets(self) -> list[str]:
        """The outlets that failed, or of which some listings failed, in this run."""
        return [name for name, health in self.outlets.items() if health.state is not Reach.OK]


class Direction(enum.StrEnum):
    """Which way a pair teaches (shared/data/pairs-dev's scheme, sides as a and b)."""

    EQUIVALENT = "equivalent"
    A_COVERS_B = "a_covers_b"
    B_COVERS_A = "b_covers_a"
    BOTH_ADD = "both_add"


@dataclass(slots=True)
class Story:
    """One event told by one or more outlets within days: the articles grouped together."""

    language: str
    first_day: date | None
    last_day: date | None
    article_ids: list[int]
    outlets: list[str] = field(default_factory=list)
    # A line for people (the title of its first article); not an identity.
    headline: str = ""
    id: int | None = None


class StoryDay(NamedTuple):
    """The stories that opened on one day: how many, how many several outlets told, and
    their articles."""

    day: date
    stories: int
    multi_outlet: int
    articles: int


class StoryInput(NamedTuple):
    """What the stories stage reads of an article: its outlet, language, day (or the day it
    was crawled), title and the start of its text."""

    id: int
    source: str
    language: str
    published: date | None
    crawled_day: date
    title: str
    lead: str


@dataclass(slots=True)
class Pair:
    """An (input, target) paraphrase pair found by a run."""

    run_id: int
    input_sentence_id: int
    target_sentence_id: int
    score: float
    raw_score: float
    shared_pn: int
    shared_cn: int
    # The scorer's probability that the pair is a paraphrase, and the signals it read.
    probability: float | None = None
    features: dict[str, float] = field(default_factory=dict)
    # The story both sentences belong to (None when the run searched a whole window).
    story_id: int | None = None
    # The candidate source that found it ("hcsss", "dense").
    source: str = "hcsss"
    # The pair model's grade (0-5), direction (input as a, target as b) and probability per
    # grade; None/[] for pairs stored before graded pairs existed.
    grade: int | None = None
    direction: str | None = None
    grade_probabilities: list[float] = field(default_factory=list)


@dataclass(slots=True)
class PairRow:
    """A pair with both of its sentences, as an export needs it."""

    pair: Pair
    input: Sentence
    target: Sentence


@dataclass(slots=True)
class ReviewLabel:
    """An operator's verdict on one pair: right or wrong for a corpus, and where the reader
    graded it, the grade (0-5) and the direction (the pair's input as side a)."""

    pair_id: int
    correct: bool
    labeled_at: datetime
    reviewer: str = ""
    grade: int | None = None
    direction: Direction | None = None


class ReviewedPair(NamedTuple):
    """A reviewed pair's stored features (its input as side a) and the reader's label."""

    features: dict[str, float]
    correct: bool
    grade: int | None
    direction: Direction | None


def useful_reading(grade: int, direction: Direction) -> bool:
    """Whether a pair read with this grade and direction (its input as side a) teaches
    without inventing: grade 4-5 either way, or grade 3 with the input covering the target."""
    return grade >= 4 or (grade == 3 and direction == Direction.A_COVERS_B)


class VolumeCount(NamedTuple):
    """How many rows (articles, sentences, ...) share a day, outlet, topic and language."""

    published: date | None
    source: str
    topic: str
    language: str
    count: int


@dataclass(frozen=True, slots=True)
class PairQuery:
    """What pairs are searched by; None leaves a filter out. Newest first, `limit` at a time,
    `before` a pair id to page on from."""

    q: str | None = None
    entity: str | None = None
    outlet: str | None = None
    since: date | None = None
    until: date | None = None
    min_score: float | None = None
    max_score: float | None = None
    min_probability: float | None = None
    min_grade: int | None = None
    direction: str | None = None
    run: int | None = None
    story: int | None = None
    before: int | None = None
    limit: int = 20


@dataclass(slots=True)
class PairSide:
    """One sentence of a pair with its article."""

    sentence_id: int
    text: str
    source: str
    published: date | None
    article_id: int
    article_url: str
    article_title: str


@dataclass(slots=True)
class PairListing:
    """A pair with both sentences and their articles, as operators browse and review it."""

    id: int
    run_id: int
    score: float
    raw_score: float
    shared_pn: int
    shared_cn: int
    input: PairSide
    target: PairSide
    # The pair scorer's probability (None for pairs stored before the scorer existed).
    probability: float | None = None
    # The story the pair was found in (None: found by a search of the whole window).
    story_id: int | None = None
    # The pair model's grade and direction, the input as side a (None: stored before it).
    grade: int | None = None
    direction: str | None = None
