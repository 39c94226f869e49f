"""Archive readers, field mapping and record validation of the ingest stage."""

from __future__ import annotations

import gzip
import json
from datetime import date
from pathlib import Path

import pytest

from parawire.config import IngestConfig
from parawire.crawler.ingest import (
    BadRecord,
    RecordRules,
    archive_files,
    field_map,
    read_records,
    to_article,
)
from parawire.errors import ParawireError

BODY = ("The city council approved the new budget on Monday after a long debate. "
        "The mayor said the vote would fund schools and hospitals. ") * 4
TOPICS = {"en": {"politics": ["council", "budget", "mayor", "vote"], "sports": ["match"]}}


def _rules(*flags: str, mapping: str | None = None) -> RecordRules:
    return RecordRules(field_map(IngestConfig().columns, mapping, list(flags)), "en", 100, TOPICS)


def test_jsonl_gz_records_keep_their_line_numbers_and_bad_lines_say_why(tmp_path: Path):
    path = tmp_path / "archive.jsonl.gz"
    lines = [json.dumps({"url": "https://a.example/1", "text": BODY}), "", "{not json",
             json.dumps(["a", "list"]), json.dumps({"url": "https://a.example/2", "text": BODY})]
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    records = list(read_records(path))
    assert [(r.where, bool(r.error)) for r in records] == [
        ("line 1", False), ("line 3", True), ("line 4", True), ("line 5", False)]
    assert records[1].error.startswith("not JSON")
    assert records[2].error == "a record is an object, not list"
    assert records[3].fields["url"] == "https://a.example/2"


def test_csv_rows_span_lines_and_a_short_row_is_bad(tmp_path: Path):
    path = tmp_path / "export.csv"
    long_text = "x" * 200_000  # over csv's default field size limit
    path.write_text('link,outlet,text\nhttps://b.example/1,b,"two\nlines"\n'
                    'https://b.example/2,b\n'
                    f'https://b.example/3,b,{long_text}\n', encoding="utf-8")
    records = list(read_records(path))
    assert [r.where for r in records] == ["line 2", "line 4", "line 5"]
    assert records[0].fields == {"link": "https://b.example/1", "outlet": "b",
                                 "text": "two\nlines"}
    assert records[1].error == "2 columns, the header has 3"
    assert len(records[2].fields["text"]) == 200_000


def test_news_please_json_file_and_array(tmp_path: Path):
    single = tmp_path / "one.json"
    single.write_text(json.dumps({"url": "https://c.example/a", "maintext": BODY,
                                  "date_publish": "2020-05-18 09:30:00",
                                  "source_domain": "c.example", "authors": ["Ann", "Bo"],
                                  "title": "Budget passes"}))
    many = tmp_path / "many.json"
    many.write_text(json.dumps([{"url": "https://c.example/b"}, 7]))
    article = to_article(next(read_records(single)).fields, _rules())
    assert (article.source, article.published, article.author, article.title, article.topic) == (
        "c.example", date(2020, 5, 18), "Ann, Bo", "Budget passes", "politics")
    records = list(read_records(many))
    assert [(r.where, r.error) for r in records] == [
        ("item 1", ""), ("item 2", "a record is an object, not int")]


def test_folders_expand_to_archive_files_and_missing_paths_fail(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    for name in ("sub/b.json", "a.jsonl.gz", "notes.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in archive_files([str(tmp_path)])] == ["a.jsonl.gz", "b.json"]
    with pytest.raises(ParawireError, match="archive file not found: .*nope.jsonl"):
        archive_files([str(tmp_path / "nope.jsonl")])
    with pytest.raises(ParawireError, match="unknown archive format"):
        list(read_records(tmp_path / "notes.txt"))


def test_field_flags_and_mapping_file_override_the_configured_keys(tmp_path: Path):
    mapping = tmp_path / "map.toml"
    mapping.write_text('[fields]\ntext = "body_html"\nsource = ["site", "outlet"]\n')
    chosen = field_map(IngestConfig().columns, str(mapping), ["url=link", "topic=section"])
    assert chosen["url"] == ["link"] and chosen["topic"] == ["section"]
    assert chosen["text"] == ["body_html"] and chosen["source"] == ["site", "outlet"]
    assert chosen["title"] == ["title"]
    with pytest.raises(ParawireError, match="unknown article field 'body'"):
        field_map(IngestConfig().columns, None, ["body=text"])
    with pytest.raises(ParawireError, match="write FIELD=KEY"):
        field_map(IngestConfig().columns, None, ["url"])
    mapping.write_text("[other]\n")
    with pytest.raises(ParawireError, match=r"needs a \[fields\] table"):
        field_map(IngestConfig().columns, str(mapping))


def test_records_become_articles_with_hash_canonical_url_and_topic():
    record = {"link": "https://www.d.example/story?utm_source=x#top", "outlet": "d.example",
              "date": "2019-02-03", "title": "Council vote", "text": BODY, "topic": "elections"}
    article = to_article(record, _rules("url=link"))
    assert article.url == record["link"]
    assert article.canonical_url == "https://www.d.example/story"
    assert (article.source, article.language, article.published) == (
        "d.example", "en", date(2019, 2, 3))
    assert article.topic == "politics"  # topic is not mapped by default: assigned by keywords
    assert len(article.content_hash) == 64
    assert to_article(record, _rules("url=link", "topic=topic")).topic == "elections"
    unnamed = to_article({"url": "https://www.e.example/x", "text": BODY}, _rules())
    assert unnamed.source == "e.example" and unnamed.published is None


@pytest.mark.parametrize(("record", "reason"), [
    ({"text": BODY}, "no url: 'url' missing or empty"),
    ({"url": "ftp://x.example/1", "text": BODY}, "is not an http(s) URL"),
    ({"url": "https://x.example/1", "text": "short"}, "fewer than crawl.min_text_chars = 100"),
    ({"url": "https://x.example/1", "text": BODY, "date": "yesterday"},
     "published ('date') 'yesterday' is not an ISO date"),
    ({"url": "https://x.example/1", "text": BODY, "title": 5}, "title ('title') is int, not text"),
    ({"url": "https://x.example/1"}, "no text: 'text' or 'maintext' or 'body' missing"),
])
def test_bad_records_name_the_problem(record: dict, reason: str):
    with pytest.raises(BadRecord, match=reason.replace("(", r"\(").replace(")", r"\)")):
        to_article(record, _rules())
