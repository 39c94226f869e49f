"""Queries over the store's tables, the same on SQLite and PostgreSQL."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from parawire.errors import ParawireError
from parawire.records import AlignmentRun, Article, Collocation, CrawlRun, Pair, Run, Sentence
from parawire.store import schema
from parawire.textnorm import hamming, simhash, simhash_bands

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")
# Articles whose SimHashes differ in at most this many bits are near-duplicates.
NEAR_DUPLICATE_BITS = 7
RunT = TypeVar("RunT", bound=Run)


class ArticleOutcome(enum.StrEnum):
    """What the store did with an article handed to it."""

    STORED = "stored"
    NEAR_DUPLICATE = "near_duplicate"
    DUPLICATE_URL = "duplicate_url"
    DUPLICATE_CONTENT = "duplicate_content"


@dataclass(slots=True)
class PairRow:
    """A pair with both of its sentences, as an export needs it."""

    pair: Pair
    input: Sentence
    target: Sentence


@dataclass(slots=True)
class ReviewLabel:
    """An operator's verdict on one pair: a right or a wrong paraphrase."""

    pair_id: int
    correct: bool
    labeled_at: datetime


def now() -> datetime:
    """The current UTC time without tzinfo (stored as naive UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


def open_store(url: str) -> Store:
    """Connect to the store at `url` and bring its schema up to date."""
    store = Store(url)
    store.migrate()
    return store


class Store:
    """Typed access to the store; one instance per process."""

    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.engine: Engine = sa.create_engine(url, future=True, pool_pre_ping=True)
        except (sa.exc.ArgumentError, ImportError) as exc:
            raise ParawireError(f"bad store.url {url!r}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.url = url

    # -- schema -----------------------------------------------------------------
    def migrate(self) -> None:
        """Apply every Alembic migration not yet applied (idempotent)."""
        config = AlembicConfig(str(ALEMBIC_INI))
        try:
            with self.engine.begin() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except OperationalError as exc:
            reason = str(exc.orig).strip().splitlines()[0]
            raise ParawireError(f"cannot reach the store at {self._safe_url()}: {reason}") from None

    def _safe_url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def _insert_ignoring_conflicts(self, table: sa.Table) -> Any:
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table).on_conflict_do_nothing()

    # -- crawl runs and articles ---------------------------------------------------
    def start_crawl_run(self, parameters: dict[str, Any]) -> int:
        """Record a new crawl run; returns its id."""
        with self.engine.begin() as conn:
            return conn.execute(
                schema.crawl_runs.insert().values(
                    started_at=now(), status="running", parameters=parameters, counts={}
                )
            ).inserted_primary_key[0]

    def finish_crawl_run(self, run_id: int, counts: dict[str, int], status: str = "finished") -> None:
        """Close a crawl run with its counts."""
        with self.engine.begin() as conn:
            conn.execute(
                schema.crawl_runs.update()
                .where(schema.crawl_runs.c.id == run_id)
                .values(finished_at=now(), status=status, counts=counts)
            )

    def crawl_runs(self, limit: int = 20) -> list[CrawlRun]:
        """The latest crawl runs, newest first."""
        query = sa.select(schema.crawl_runs).order_by(schema.crawl_runs.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [_run(CrawlRun, row) for row in conn.execute(query)]

    def known_urls(self) -> set[str]:
        """Every URL and canonical URL already stored."""
        query = sa.select(schema.articles.c.url, schema.articles.c.canonical_url)
        with self.engine.connect() as conn:
            return {url for row in conn.execute(query) for url in row}

    def add_article(self, article: Article, crawl_run_id: int | None = None) -> ArticleOutcome:
        """Store an article unless its URL or its content is already stored."""
        table = schema.articles
        canonical = article.canonical_url or article.url
        with self.engine.begin() as conn:
            seen_url = conn.execute(
                sa.select(table.c.id).where(
                    sa.or_(table.c.url.in_([article.url, canonical]),
                           table.c.canonical_url.in_([article.url, canonical]))
                ).limit(1)
            ).first()
            if seen_url is not None:
                return ArticleOutcome.DUPLICATE_URL
            seen_content = conn.execute(
                sa.select(table.c.id).where(table.c.content_hash == article.content_hash).limit(1)
            ).first()
            if seen_content is not None:
                return ArticleOutcome.DUPLICATE_CONTENT
            fingerprint = simhash(article.text)
            bands = simhash_bands(fingerprint)
            article.syndicated_of = self._first_near_copy(conn, fingerprint, bands)
            article.id = conn.execute(
                table.insert().values(
                    url=article.url, canonical_url=canonical, source=article.source,
                    language=article.language, topic=article.topic, published=article.published,
                    crawled_at=article.crawled_at or now(), title=article.title,
                    text=article.text, author=article.author,
                    content_hash=article.content_hash, annotated=False,
                    crawl_run_id=crawl_run_id, simhash=f"{fingerprint:016x}",
                    syndicated_of=article.syndicated_of,
                    **{f"simhash_b{i}": band for i, band in enumerate(bands)},
                )
            ).inserted_primary_key[0]
        if article.syndicated_of is not None:
            return ArticleOutcome.NEAR_DUPLICATE
        return ArticleOutcome.STORED

    @staticmethod
    def _first_near_copy(conn: Connection, fingerprint: int, bands: list[int]) -> int | None:
        """The earliest stored original within NEAR_DUPLICATE_BITS of a SimHash."""
        table = schema.articles
        columns = [table.c[f"simhash_b{i}"] for i in range(len(bands))]
        query = (
            sa.select(table.c.id, table.c.simhash, table.c.syndicated_of)
            .where(sa.or_(*(column == band for column, band in zip(columns, bands, strict=True))))
            .order_by(table.c.id)
        )
        for row in conn.execute(query):
            if row.simhash and hamming(int(row.simhash, 16), fingerprint) <= NEAR_DUPLICATE_BITS:
                return row.syndicated_of or row.id
        return None

    def syndicated_articles(self, article_ids: Iterable[int]) -> set[int]:
        """Those of the given articles that are syndicated copies of an earlier one."""
        table = schema.articles
        wanted = sorted(set(article_ids))
        found: set[int] = set()
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                query = sa.select(table.c.id).where(table.c.id.in_(chunk),
                                                    table.c.syndicated_of.is_not(None))
                found.update(row.id for row in conn.execute(query))
        return found

    def articles_to_annotate(self, batch_size: int = 200) -> Iterator[list[Article]]:
        """Batches of articles that have no sentences yet, in id order."""
        table = schema.articles
        yield from self._batches(table, [table.c.annotated.is_(False)], _article, 0, batch_size)

    def _batches(self, table: sa.Table, conditions: list[Any], convert: Any, after_id: int,
                 batch_size: int) -> Iterator[list[Any]]:
        """Rows matching `conditions` with id > after_id, converted, in id-ordered batches."""
        last_id = after_id
        while True:
            query = (sa.select(table).where(*conditions, table.c.id > last_id)
                     .order_by(table.c.id).limit(batch_size))
            with self.engine.connect() as conn:
                batch = [convert(row) for row in conn.execute(query)]
            if not batch:
                return
            last_id = batch[-1].id
            yield batch

    def count_articles_to_annotate(self) -> int:
        """How many articles the nlp stage has still to annotate."""
        table = schema.articles
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(sa.func.count()).where(table.c.annotated.is_(False))
            ).scalar_one()

    def save_annotations(self, article_id: int, sentences: list[Sentence]) -> None:
        """Store an article's sentences and mark it annotated, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(schema.sentences.delete().where(schema.sentences.c.article_id == article_id))
            if sentences:
                conn.execute(schema.sentences.insert(), [_sentence_values(s) for s in sentences])
            conn.execute(
                schema.articles.update()
                .where(schema.articles.c.id == article_id)
                .values(annotated=True)
            )

    # -- sentences -------------------------------------------------------------------
    def iter_sentences(self, after_id: int = 0, batch_size: int = 2000,
                       language: str | None = None) -> Iterator[list[Sentence]]:
        """Batches of sentences with id > after_id, in id order."""
        table = schema.sentences
        conditions = [table.c.language == language] if language else []
        yield from self._batches(table, conditions, _sentence, after_id, batch_size)

    def count_sentences(self, after_id: int = 0) -> int:
        """How many sentences have id > after_id."""
        table = schema.sentences
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(sa.func.count()).where(table.c.id > after_id)
            ).scalar_one()

    def sentences_by_id(self, ids: Iterable[int]) -> dict[int, Sentence]:
        """The sentences with the given ids."""
        wanted = sorted(set(ids))
        found: dict[int, Sentence] = {}
        table = schema.sentences
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                for row in conn.execute(sa.select(table).where(table.c.id.in_(chunk))):
                    found[row.id] = _sentence(row)
        return found

    # -- alignment runs and pairs --------------------------------------------------
    def find_or_start_alignment_run(self, run_key: str, parameters: dict[str, Any]) -> AlignmentRun:
        """The latest run with these parameters, or a new one; it is (re)opened as running."""
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(table).where(table.c.run_key == run_key).order_by(table.c.id.desc())
            ).first()
            if row is None:
                run_id = conn.execute(
                    table.insert().values(
                        run_key=run_key, parameters=parameters, started_at=now(),
                        status="running", counts={},
                    )
                ).inserted_primary_key[0]
            else:
                run_id = row.id
                conn.execute(table.update().where(table.c.id == run_id).values(status="running"))
        run = self.alignment_run(run_id)
        assert run is not None
        return run

    def alignment_run(self, run_id: int) -> AlignmentRun | None:
        """One alignment run by id."""
        table = schema.alignment_runs
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table).where(table.c.id == run_id)).first()
        return None if row is None else _run(AlignmentRun, row)

    def alignment_runs(self, limit: int = 20) -> list[AlignmentRun]:
        """The latest alignment runs, newest first."""
        table = schema.alignment_runs
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table).order_by(table.c.id.desc()).limit(limit))
            return [_run(AlignmentRun, row) for row in rows]

    def record_references_selected(self, run_id: int, selected: int) -> None:
        """Note how many references a running alignment run has in all, for its progress."""
        run = self.alignment_run(run_id)
        assert run is not None
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            conn.execute(table.update().where(table.c.id == run_id)
                         .values(counts={**run.counts, "references_selected": selected}))

    def finish_alignment_run(self, run_id: int, counts: dict[str, int]) -> None:
        """Close an alignment run with its counts."""
        table = schema.alignment_runs
        with self.engine.begin() as conn:
            conn.execute(
                table.update().where(table.c.id == run_id)
                .values(status="finished", finished_at=now(), counts=counts)
            )

    def done_references(self, run_id: int) -> set[int]:
        """Reference sentences whose search is already recorded for this run."""
        table = schema.alignment_references
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table.c.sentence_id).where(table.c.run_id == run_id))
            return {row.sentence_id for row in rows}

    def count_done_references(self, run_id: int) -> int:
        """How many references of this run have their search recorded."""
        table = schema.alignment_references
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).where(table.c.run_id == run_id)).scalar_one()

    def record_references(self, run_id: int, reference_ids: list[int], pairs: list[Pair]) -> None:
        """Store a batch's pairs and mark its references done, in one transaction."""
        with self.engine.begin() as conn:
            if pairs:
                conn.execute(
                    self._insert_ignoring_conflicts(schema.pairs),
                    [
                        {
                            "run_id": p.run_id, "input_sentence_id": p.input_sentence_id,
                            "target_sentence_id": p.target_sentence_id, "score": p.score,
                            "raw_score": p.raw_score, "shared_pn": p.shared_pn,
                            "shared_cn": p.shared_cn,
                        }
                        for p in pairs
                    ],
                )
            if reference_ids:
                conn.execute(
                    self._insert_ignoring_conflicts(schema.alignment_references),
                    [{"run_id": run_id, "sentence_id": ref} for ref in reference_ids],
                )

    def pairs(self, run_id: int) -> list[Pair]:
        """Every pair a run has stored, in insertion order."""
        table = schema.pairs
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table).where(table.c.run_id == run_id).order_by(table.c.id))
            return [_pair(row) for row in rows]

    def pair_rows(self, run_id: int) -> Iterator[PairRow]:
        """A run's pairs with both sentences, in insertion order."""
        all_pairs = self.pairs(run_id)
        for start in range(0, len(all_pairs), 1000):
            chunk = all_pairs[start:start + 1000]
            sentences = self.sentences_by_id(
                [i for p in chunk for i in (p.input_sentence_id, p.target_sentence_id)]
            )
            for pair in chunk:
                yield PairRow(pair, sentences[pair.input_sentence_id],
                              sentences[pair.target_sentence_id])

    # -- review labels -------------------------------------------------------------
    def sample_unlabeled_pairs(self, run_id: int, size: int) -> list[int]:
        """Ids of up to `size` pairs of a run, drawn at random among those not labeled yet."""
        pairs, labels = schema.pairs, schema.review_labels
        query = (
            sa.select(pairs.c.id)
            .outerjoin(labels, labels.c.pair_id == pairs.c.id)
            .where(pairs.c.run_id == run_id, labels.c.id.is_(None))
            .order_by(sa.func.random()).limit(size)
        )
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def label_pair(self, run_id: int, pair_id: int, correct: bool) -> bool:
        """Record (or change) the verdict on a pair; False when the run has no such pair."""
        pairs, labels = schema.pairs, schema.review_labels
        with self.engine.begin() as conn:
            found = conn.execute(
                sa.select(pairs.c.id).where(pairs.c.id == pair_id, pairs.c.run_id == run_id)
            ).first()
            if found is None:
                return False
            changed = conn.execute(
                labels.update().where(labels.c.pair_id == pair_id)
                .values(correct=correct, labeled_at=now())
            ).rowcount
            if not changed:
                conn.execute(labels.insert().values(run_id=run_id, pair_id=pair_id,
                                                    correct=correct, labeled_at=now()))
        return True

    def review_labels(self, run_id: int) -> list[ReviewLabel]:
        """A run's labels, in the order they were first given."""
        labels = schema.review_labels
        query = sa.select(labels).where(labels.c.run_id == run_id).order_by(labels.c.id)
        with self.engine.connect() as conn:
            return [ReviewLabel(pair_id=row.pair_id, correct=row.correct,
                                labeled_at=row.labeled_at) for row in conn.execute(query)]

    # -- overview ------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """Row counts per table, for `parawire status`."""
        tables = {
            "articles": schema.articles, "sentences": schema.sentences,
            "crawl_runs": schema.crawl_runs, "alignment_runs": schema.alignment_runs,
            "pairs": schema.pairs,
        }
        with self.engine.connect() as conn:
            result = {
                name: conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
                for name, table in tables.items()
            }
            result["articles_annotated"] = conn.execute(
                sa.select(sa.func.count()).where(schema.articles.c.annotated.is_(True))
            ).scalar_one()
        return result


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _article(row: Any) -> Article:
    return Article(
        id=row.id, url=row.url, canonical_url=row.canonical_url, source=row.source,
        language=row.language, topic=row.topic, published=row.published,
        crawled_at=row.crawled_at, title=row.title, text=row.text, author=row.author,
        content_hash=row.content_hash, syndicated_of=row.syndicated_of,
    )


def _sentence_values(s: Sentence) -> dict[str, Any]:
    return {
        "article_id": s.article_id, "position": s.position, "text": s.text,
        "tokens": s.tokens, "lemmas": s.lemmas, "pos": s.pos,
        "entities": [list(e) for e in s.entities], "proper_nouns": s.proper_nouns,
        "common_nouns": s.common_nouns,
        "collocations": [{"text": c.text, "lemma": c.lemma, "pos": c.pos} for c in s.collocations],
        "language": s.language, "topic": s.topic, "published": s.published, "source": s.source,
    }


def _sentence(row: Any) -> Sentence:
    published: date | None = row.published
    return Sentence(
        id=row.id, article_id=row.article_id, position=row.position, text=row.text,
        tokens=row.tokens, lemmas=row.lemmas, pos=row.pos,
        entities=[(text, label) for text, label in row.entities],
        proper_nouns=row.proper_nouns, common_nouns=row.common_nouns,
        collocations=[Collocation(**c) for c in row.collocations],
        language=row.language, topic=row.topic, published=published, source=row.source,
    )


def _run(cls: type[RunT], row: Any) -> RunT:
    return cls(
        id=row.id, parameters=row.parameters, status=row.status, started_at=row.started_at,
        finished_at=row.finished_at, counts=row.counts,
    )


def _pair(row: Any) -> Pair:
    return Pair(
        run_id=row.run_id, input_sentence_id=row.input_sentence_id,
        target_sentence_id=row.target_sentence_id, score=row.score, raw_score=row.raw_score,
        shared_pn=row.shared_pn, shared_cn=row.shared_cn,
    )
