"""The ingest stage: archive records become stored articles, in batched transactions,
deduplicated and fingerprinted like crawled ones, recorded as a crawl run."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from parawire.config import Settings
from parawire.crawler.dedup import NearDuplicates, store_article
from parawire.crawler.ingest.boilerplate import strip_site_lines
from parawire.crawler.ingest.mapping import field_map
from parawire.crawler.ingest.readers import RawRecord, archive_files, read_records
from parawire.crawler.ingest.scope import IngestScope
from parawire.crawler.ingest.validate import BadRecord, RecordRules, to_article
from parawire.crawler.outlets import OutletLearning
from parawire.crawler.runner import sources_path
from parawire.crawler.sources import load_topics
from parawire.iterate import batched
from parawire.records import ArticleOutcome
from parawire.store import Store, store_of

_OUTCOMES = {ArticleOutcome.STORED: "stored", ArticleOutcome.NEAR_DUPLICATE: "near_duplicate",
             ArticleOutcome.DUPLICATE_URL: "duplicate_url",
             ArticleOutcome.DUPLICATE_CONTENT: "duplicate_content"}


def run_ingest(settings: Settings, scope: IngestScope) -> dict[str, Any]:
    """Store the articles of the scope's archives; returns the run's counts (the ingest
    stage). Bad records are counted and logged with file and line to data_dir/logs; a URL
    already stored is skipped before any work, so re-running resumes or does nothing."""
    files = archive_files(scope.files)
    rules = RecordRules(
        fields=field_map(settings.ingest.columns, scope.mapping, scope.fields),
        language=settings.ingest.language, min_text_chars=settings.crawl.min_text_chars,
        topics=load_topics(sources_path(settings, scope.sources)))
    store = store_of(settings)
    run_id = store.start_crawl_run({"ingest": [str(f) for f in files], "format": scope.format,
                                    "fields": rules.fields})
    log_file = settings.data_dir.resolve() / "logs" / f"ingest-{run_id}.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    log = _run_log(log_file, run_id)
    try:
        counts = _Ingestion(store, run_id, rules, log, settings.ingest.strip_boilerplate).run(
            _records(files, scope), settings.ingest.batch_size)
    except BaseException:
        store.finish_crawl_run(run_id, {}, status="failed")
        raise
    finally:
        for handler in log.handlers:
            handler.close()
    store.finish_crawl_run(run_id, counts)
    return {"run_id": run_id, "log": str(log_file), **counts}


def _records(files: list[Path], scope: IngestScope) -> Iterator[RawRecord]:
    for path in files:
        yield from read_records(path, scope.format)


class _Ingestion:
    """One ingest run's work on its records: what is known of the store (URLs, fingerprints,
    the sites' repeated lines) and the counts of what became of each record."""

    def __init__(self, store: Store, run_id: int, rules: RecordRules, log: logging.Logger,
                 strip_boilerplate: bool) -> None:
        self.store, self.run_id, self.rules, self.log = store, run_id, rules, log
        self.known, self.near = store.known_urls(), NearDuplicates(store)
        self.learning = OutletLearning(store) if strip_boilerplate else None
        self.counts: Counter[str] = Counter()  # what became of each record
        self.boilerplate_lines = 0

    def run(self, records: Iterable[RawRecord], batch_size: int) -> dict[str, int]:
        """Store the records, a transaction per batch; returns the counts."""
        with tqdm(desc="ingest", unit="record", disable=None) as bar:
            for batch in batched(records, batch_size):
                with self.store.transaction():
                    self.near.refresh()
                    for raw in batch:
                        self.counts[self.one(raw)] += 1
                    if self.learning is not None:
                        self.learning.save()
                bar.update(len(batch))
        counts = {**self.counts, "records": sum(self.counts.values())}
        return counts | ({"boilerplate_lines": self.boilerplate_lines} if self.learning else {})

    def one(self, raw: RawRecord) -> str:
        """Store one record; returns what became of it."""
        try:
            if raw.error:
                raise BadRecord(raw.error)
            article = to_article(raw.fields, self.rules)
        except BadRecord as exc:
            self.log.warning("invalid %s:%s: %s", raw.file, raw.where.removeprefix("line "), exc)
            return "invalid"
        if article.url in self.known or article.canonical_url in self.known:
            return "duplicate_url"
        if self.learning is not None:
            self.boilerplate_lines += strip_site_lines(self.learning, article)
        outcome = store_article(self.store, article, self.run_id, self.near)
        self.known.update((article.url, article.canonical_url))
        if outcome not in (ArticleOutcome.STORED, ArticleOutcome.NEAR_DUPLICATE):
            self.log.info("%s %s:%s: %s", _OUTCOMES[outcome], raw.file, raw.where, article.url)
        return _OUTCOMES[outcome]


def _run_log(path: Path, run_id: int) -> logging.Logger:
    log = logging.getLogger(f"parawire.ingest.{run_id}")
    log.setLevel(logging.INFO)
    log.propagate = False
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    return log
