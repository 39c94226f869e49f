"""Corpus export: one JSON object a line per pair, with both sentences' provenance."""

from __future__ import annotations

import json
from pathlib import Path

from parawire.records import Sentence
from parawire.store import PairRow, Store


def _side(sentence: Sentence) -> dict[str, object]:
    return {
        "id": sentence.id,
        "article_id": sentence.article_id,
        "source": sentence.source,
        "published": sentence.published.isoformat() if sentence.published else None,
    }


def pair_record(row: PairRow) -> dict[str, object]:
    """The exported form of one pair."""
    return {
        "input": row.input.text,
        "target": row.target.text,
        "score": round(row.pair.score, 6),
        "raw_score": round(row.pair.raw_score, 6),
        "language": row.input.language,
        "run_id": row.pair.run_id,
        "input_meta": _side(row.input),
        "target_meta": _side(row.target),
        "shared_pn": row.pair.shared_pn,
        "shared_cn": row.pair.shared_cn,
    }


def export_jsonl(store: Store, run_id: int, path: Path) -> int:
    """Write a run's pairs to `path` (replaced atomically); returns how many."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(path.suffix + ".partial")
    written = 0
    with partial.open("w", encoding="utf-8") as handle:
        for row in store.pair_rows(run_id):
            handle.write(json.dumps(pair_record(row), ensure_ascii=False) + "\n")
            written += 1
    partial.replace(path)
    return written
