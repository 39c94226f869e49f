"""Readers of news archives: JSONL (optionally gzipped), CSV and news-please-style JSON
files, each yielding raw records with where they were found."""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from parawire.errors import ParawireError

Format = Literal["auto", "jsonl", "csv", "json"]
_SUFFIXES: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv",
                                ".json": "json"}


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record of an archive as read: its file, where in it (line N, or item N of a JSON
    array), its fields, or why it could not be read."""

    file: str
    where: str
    fields: dict[str, Any] = field(default_factory=dict)
    error: str = ""


def archive_files(paths: list[str]) -> list[Path]:
    """The files to read: each path given, or the archive files under a folder (sorted)."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and _format_of(p)))
        elif path.is_file():
            found.append(path)
        else:
            raise ParawireError(f"archive file not found: {path}")
    if not found:
        raise ParawireError(f"no archive files (.jsonl, .csv, .json, optionally .gz) in "
                            f"{', '.join(paths)}")
    return found


def read_records(path: Path, fmt: Format = "auto") -> Iterator[RawRecord]:
    """The records of one archive file, in file order."""
    chosen = _format_of(path) if fmt == "auto" else fmt
    if chosen is None:
        raise ParawireError(f"{path}: unknown archive format (name it .jsonl, .csv or .json, "
                            f"optionally .gz, or pass --format)")
    reader = {"jsonl": _jsonl, "csv": _csv, "json": _json}[chosen]
    try:
        with _open_text(path) as stream:
            yield from reader(str(path), stream)
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise ParawireError(f"cannot read {path}: {exc}") from None


def _format_of(path: Path) -> Format | None:
    suffixes = path.suffixes[-2:]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return _SUFFIXES.get(suffixes[-1]) if suffixes else None


def _open_text(path: Path) -> IO[str]:
    with path.open("rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
    return path.open(encoding="utf-8", newline="")


def _record(file: str, where: str, value: Any) -> RawRecord:
    if not isinstance(value, dict):
        return RawRecord(file, where, error=f"a record is an object, not {type(value).__name__}")
    return RawRecord(file, where, fields=value)


def _jsonl(file: str, stream: IO[str]) -> Iterator[RawRecord]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            yield RawRecord(file, f"line {number}", error=f"not JSON ({exc.msg})")
            continue
        yield _record(file, f"line {number}", value)


def _csv(file: str, stream: IO[str]) -> Iterator[RawRecord]:
    csv.field_size_limit(sys.maxsize)  # article bodies outgrow csv's 128 KiB default
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        raise ParawireError(f"{file}: bad CSV header: {exc}") from None
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield RawRecord(file, f"line {start}", error=f"bad CSV ({exc})")
            start = reader.line_num + 1
            continue
        where, start = f"line {start}", reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            yield RawRecord(file, where, error=f"{len(row)} columns, the header has {len(header)}")
            continue
        yield RawRecord(file, where, fields=dict(zip(header, row, strict=True)))


def _json(file: str, stream: IO[str]) -> Iterator[RawRecord]:
    """A news-please file (one article object) or an array of such objects."""
    try:
        value = json.load(stream)
    except json.JSONDecodeError as exc:
        yield RawRecord(file, f"line {exc.lineno}", error=f"not JSON ({exc.msg})")
        return
    if isinstance(value, list):
        for number, item in enumerate(value, start=1):
            yield _record(file, f"item {number}", item)
    else:
        yield _record(file, "line 1", value)
