"""Ingest of existing news archives (JSONL, CSV, news-please JSON) into the store."""

from parawire.crawler.ingest.mapping import ARTICLE_FIELDS, field_map
from parawire.crawler.ingest.readers import RawRecord, archive_files, read_records
from parawire.crawler.ingest.run import run_ingest
from parawire.crawler.ingest.scope import IngestScope
from parawire.crawler.ingest.validate import BadRecord, RecordRules, to_article
from parawire.stage import Stage

INGEST = Stage(
    name="ingest",
    summary="Store the articles of existing news archives (JSONL, CSV, news-please JSON).",
    scope=IngestScope, work=run_ingest)

__all__ = [
    "ARTICLE_FIELDS", "INGEST", "BadRecord", "IngestScope", "RawRecord", "RecordRules",
    "archive_files", "field_map", "read_records", "run_ingest", "to_article",
]
