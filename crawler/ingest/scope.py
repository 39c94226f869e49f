"""What one ingest covers: archive files, their format and field mapping."""

from __future__ import annotations

from parawire.crawler.ingest.readers import Format
from parawire.stage import Scope, option


class IngestScope(Scope):
    """The archive files (or folders of them) to read, their format (by file name unless
    given), and which record keys hold which article field."""

    files: list[str] = option(..., "Archive files or folders (.jsonl, .csv, .json; .gz too).",
                              argument=True, min_length=1)
    format: Format = option("auto", "Archive format (auto: by the file name).")
    fields: list[str] = option([], "FIELD=KEY[,KEY…]: the record keys holding an article "
                               "field (repeatable), e.g. source=outlet.", flag="--field")
    mapping: str | None = option(None, "TOML file whose [fields] table maps article fields "
                                 "to record keys.")
    sources: str | None = option(None, "Sources file whose topic keyword groups assign topics "
                                 "[default: crawl.sources].")
