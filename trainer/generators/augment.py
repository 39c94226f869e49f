"""Paraphrases as data augmentation: each row of a labelled dataset, then one copy of it per
paraphrase of its text field, every other field (the label) kept."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from parawire.errors import ParawireError
from parawire.trainer.generators.api import Candidate


def read_rows(path: Path, field: str) -> list[dict[str, Any]]:
    """The JSON objects of a JSONL file, each with a non-empty string in `field`; a bad line
    is a one-line error naming the file and line."""
    rows = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ParawireError(f"cannot read {path}: {error.strerror}") from error
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ParawireError(f"{path}:{number}: not JSON ({error.msg})") from error
        if not isinstance(row, dict) or not isinstance(row.get(field), str) or not row[field].strip():
            raise ParawireError(f"{path}:{number}: no text in field {field!r}")
        rows.append(row)
    return rows


def augmented(rows: Sequence[dict[str, Any]], field: str,
              outputs: Sequence[Sequence[Candidate]]) -> list[dict[str, Any]]:
    """Each row as it was, followed by a copy per candidate with `field` replaced by the
    candidate's text, `augmented_from` (the row's index) and `origin` added."""
    out: list[dict[str, Any]] = []
    for index, (row, candidates) in enumerate(zip(rows, outputs, strict=True)):
        out.append(dict(row))
        out += [{**row, field: c.text, "augmented_from": index, "origin": c.origin} for c in candidates]
    return out
