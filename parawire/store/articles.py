"""Crawl runs and articles: what the crawler writes and the annotate stage reads."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from parawire.records import (
    Article,
    ArticleOutcome,
    ArticleRef,
    CrawlRun,
    FingerprintMatch,
    OutletHealth,
)
from parawire.store import schema
from parawire.store.base import StoreBase, now
from parawire.store.rows import article_record, health_record, health_values

_ARTICLES = schema.articles
# Built once: these run for every article stored (an ingest stores tens of thousands).
_SEEN_URL = sa.select(_ARTICLES.c.id).where(sa.or_(
    _ARTICLES.c.url == sa.bindparam("url"), _ARTICLES.c.url == sa.bindparam("canonical"),
    _ARTICLES.c.canonical_url == sa.bindparam("url"),
    _ARTICLES.c.canonical_url == sa.bindparam("canonical"))).limit(1)
_SEEN_CONTENT = sa.select(_ARTICLES.c.id).where(
    _ARTICLES.c.content_hash == sa.bindparam("content_hash")).limit(1)
# A crawl run's outlets (how each fared) are kept in its counts' JSON under this key.
OUTLETS = "outlets"
# Crawl runs read at a time, newest first, when looking for outlets' latest health.
HEALTH_PAGE = 200
_FINGERPRINTS_AFTER = (
    sa.select(_ARTICLES.c.id, _ARTICLES.c.simhash, _ARTICLES.c.syndicated_of)
    .where(_ARTICLES.c.id > sa.bindparam("after"), _ARTICLES.c.simhash.is_not(None))
    .order_by(_ARTICLES.c.id))


class ArticleQueries(StoreBase):
    """Crawl runs and articles."""

    def start_crawl_run(self, parameters: dict[str, Any]) -> int:
        """Record a new crawl run; returns its id."""
        with self.engine.begin() as conn:
            return conn.execute(
                schema.crawl_runs.insert().values(
                    started_at=now(), status="running", parameters=parameters, counts={}
                )
            ).inserted_primary_key[0]

    def finish_crawl_run(self, run_id: int, counts: dict[str, int], status: str = "finished",
                         reason: str = "", outlets: dict[str, OutletHealth] | None = None,
                         finished_at: datetime | None = None) -> None:
        """Close a crawl run with its counts, how each outlet fared (when known), and the
        reason when it did not finish or what a finished run's operator should know."""
        stored: dict[str, Any] = dict(counts)
        if outlets:
            stored[OUTLETS] = {name: health_values(h) for name, h in outlets.items()}
        with self.engine.begin() as conn:
            conn.execute(
                schema.crawl_runs.update()
                .where(schema.crawl_runs.c.id == run_id)
                .values(finished_at=finished_at or now(), status=status, counts=stored,
                        reason=reason or None)
            )

    def stop_crawl_run(self, run_id: int, status: str, reason: str) -> None:
        """End a running crawl run as "interrupted" or "failed", with the reason."""
        self._stop_run(schema.crawl_runs, run_id, status, reason)

    def crawl_run(self, run_id: int) -> CrawlRun | None:
        """One crawl run by id."""
        run = self._run_by_id(schema.crawl_runs, CrawlRun, run_id)
        return None if run is None else _with_outlets(run)

    def crawl_runs(self, limit: int = 20) -> list[CrawlRun]:
        """The latest crawl runs, newest first."""
        return [_with_outlets(run) for run in self._latest_runs(schema.crawl_runs, CrawlRun, limit)]

    def outlet_health(self, names: Iterable[str] | None = None,
                      runs: int = 1000) -> dict[str, OutletHealth]:
        """Each outlet's health as its latest crawl run left it (that run's verdict, with
        its last success, failed days and last error), from the latest `runs` crawl runs;
        only the named outlets when given. Sorted by name."""
        wanted = None if names is None else set(names)
        found: dict[str, OutletHealth] = {}
        table = schema.crawl_runs
        before, seen = None, 0
        with self.engine.connect() as conn:
            while seen < runs and (wanted is None or not wanted <= found.keys()):
                query = sa.select(table.c.id, table.c.counts).order_by(table.c.id.desc())
                if before is not None:
                    query = query.where(table.c.id < before)
                rows = conn.execute(query.limit(min(HEALTH_PAGE, runs - seen))).all()
                if not rows:
                    break
                for row in rows:
                    for name, values in (row.counts or {}).get(OUTLETS, {}).items():
                        if name not in found and (wanted is None or name in wanted):
                            found[name] = health_record(values)
                before, seen = rows[-1].id, seen + len(rows)
        return dict(sorted(found.items()))

    def crawl_error_totals(self) -> dict[str, int]:
        """Failed requests of every crawl run, by error class (the crawl's `errors/...`
        counts), summed: they only grow, as a Prometheus counter must."""
        totals: dict[str, int] = {}
        query = sa.select(schema.crawl_runs.c.counts)
        with self.engine.connect() as conn:
            for counts in conn.scalars(query):
                for key, value in (counts or {}).items():
                    if key.startswith("errors/") and isinstance(value, int):
                        error = key.removeprefix("errors/")
                        totals[error] = totals.get(error, 0) + value
        return dict(sorted(totals.items()))

    def known_urls(self) -> set[str]:
        """Every URL and canonical URL already stored."""
        query = sa.select(schema.articles.c.url, schema.articles.c.canonical_url)
        with self.engine.connect() as conn:
            return {url for row in conn.execute(query) for url in row}

    def add_article(self, article: Article, crawl_run_id: int | None = None,
                    fingerprint: int | None = None) -> ArticleOutcome:
        """Store an article (with its `syndicated_of` and, when given, its 64-bit fingerprint
        for `fingerprints_after`) unless its URL or its content is already stored; inside
        `transaction()` it joins that transaction."""
        canonical = article.canonical_url or article.url
        with self._begin() as conn:
            if conn.execute(_SEEN_URL, {"url": article.url, "canonical": canonical}).first():
                return ArticleOutcome.DUPLICATE_URL
            if conn.execute(_SEEN_CONTENT, {"content_hash": article.content_hash}).first():
                return ArticleOutcome.DUPLICATE_CONTENT
            article.id = conn.execute(schema.articles.insert(), {
                "url": article.url, "canonical_url": canonical, "source": article.source,
                "language": article.language, "topic": article.topic,
                "published": article.published, "crawled_at": article.crawled_at or now(),
                "title": article.title, "text": article.text, "author": article.author,
                "content_hash": article.content_hash, "annotated": False,
                "crawl_run_id": crawl_run_id, "syndicated_of": article.syndicated_of,
                "simhash": None if fingerprint is None else f"{fingerprint:016x}",
            }).inserted_primary_key[0]
        return ArticleOutcome.STORED

    def fingerprints_after(self, article_id: int) -> list[FingerprintMatch]:
        """The fingerprints of the articles stored after this id, in id order (inside
        `transaction()`, its own articles included)."""
        with self._begin() as conn:
            return [FingerprintMatch(row.id, int(row.simhash, 16), row.syndicated_of)
                    for row in conn.execute(_FINGERPRINTS_AFTER, {"after": article_id})]

    def count_fingerprints(self, up_to: int) -> int:
        """How many articles up to this id have a fingerprint."""
        query = sa.select(sa.func.count()).where(_ARTICLES.c.id <= up_to,
                                                  _ARTICLES.c.simhash.is_not(None))
        with self._begin() as conn:
            return conn.execute(query).scalar_one()

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

    def article(self, article_id: int) -> Article | None:
        """One stored article by id."""
        table = schema.articles
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table).where(table.c.id == article_id)).first()
        return None if row is None else article_record(row)

    def count_articles(self) -> int:
        """How many articles the store holds."""
        return self._count(table=schema.articles)

    def article_refs(self, article_ids: Iterable[int]) -> dict[int, ArticleRef]:
        """Address, outlet, title and day of these articles (their text left out), by id."""
        table = schema.articles
        wanted = sorted(set(article_ids))
        columns = (table.c.id, table.c.url, table.c.canonical_url, table.c.source, table.c.title,
                   table.c.published)
        refs: dict[int, ArticleRef] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 500):
                query = sa.select(*columns).where(table.c.id.in_(wanted[start:start + 500]))
                for row in conn.execute(query):
                    refs[row.id] = ArticleRef(row.id, row.canonical_url or row.url, row.source,
                                              row.title, row.published)
        return refs

    def articles_to_annotate(self, batch_size: int = 200, language: str | None = None
                             ) -> Iterator[list[Article]]:
        """Batches of articles that have no sentences yet (in one language, if given), in id
        order."""
        table = schema.articles
        conditions = [table.c.annotated.is_(False)]
        if language is not None:
            conditions.append(table.c.language == language)
        yield from self._batches(table, conditions, article_record, 0, batch_size)

    def languages_to_annotate(self) -> list[str]:
        """The languages of the articles that have no sentences yet, sorted."""
        table = schema.articles
        query = (sa.select(table.c.language).where(table.c.annotated.is_(False)).distinct()
                 .order_by(table.c.language))
        with self.engine.connect() as conn:
            return list(conn.scalars(query))

    def mark_for_reannotation(self) -> int:
        """Mark every annotated article to be annotated again (after a change of features);
        the collocation counts start over with them. Returns how many were marked."""
        articles = schema.articles
        with self.engine.begin() as conn:
            marked = conn.execute(articles.update().where(articles.c.annotated.is_(True))
                                  .values(annotated=False, collocations_counted=False)).rowcount
            for table in (schema.collocation_words, schema.collocation_pairs,
                          schema.collocation_totals):
                conn.execute(table.delete())
        return marked

    def count_articles_to_annotate(self) -> int:
        """How many articles the nlp stage has still to annotate."""
        return self._count(schema.articles.c.annotated.is_(False))


def _with_outlets(run: CrawlRun) -> CrawlRun:
    """A crawl run whose outlets, kept in its counts' JSON, are moved to its `outlets`."""
    if OUTLETS in run.counts:
        stored: Any = run.counts.pop(OUTLETS)
        run.outlets = {name: health_record(values) for name, values in stored.items()}
    return run
