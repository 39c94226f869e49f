"""What bench/scale_run.py reads back from a finished run's SQLite store: stories and their
sizes, pairs by grade, direction and source, the eager and worker runs compared row by
row, and whether an interrupted stage lost or doubled anything."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

# What makes two runs' pairs "the same": which sentences, which way, and how they were graded.
PAIR_ROW = ("input_sentence_id", "target_sentence_id", "grade", "direction", "source",
            "story_id", "round(score, 6)", "round(probability, 6)")


def _connect(data_dir: Path) -> sqlite3.Connection:
    # not mode=ro: a read-only open that races the last writer's close of the WAL can
    # report the file as malformed
    return sqlite3.connect(data_dir / "parawire.db")


def latest_run(data_dir: Path) -> dict[str, Any]:
    """The latest alignment run: id, status and reason."""
    with _connect(data_dir) as conn:
        row = conn.execute("SELECT id, status, reason FROM alignment_runs "
                           "ORDER BY id DESC LIMIT 1").fetchone()
    return {"run_id": row[0], "status": row[1], "reason": row[2]} if row else {}


def done_so_far(stage: str, data_dir: Path) -> dict[str, Any]:
    """What an interrupted stage had stored: sentences (annotate), vectors per language
    (embed) or references searched by the latest run (align), with that run's status."""
    if stage == "embed":
        return {"vectors": stored_vector_counts(data_dir)}
    with _connect(data_dir) as conn:
        if stage == "annotate":
            return {"sentences": conn.execute("SELECT count(*) FROM sentences").fetchone()[0]}
        if stage == "align":
            run = latest_run(data_dir)
            done = conn.execute("SELECT count(*) FROM alignment_references WHERE run_id = ?",
                                (run.get("run_id"),)).fetchone()[0]
            return {**run, "references_done": done}
    return {}


def stored_vector_counts(data_dir: Path) -> dict[str, int]:
    """Vectors stored per language of the store (a language without any: 0)."""
    from parawire.config import load_settings
    from parawire.errors import ParawireError
    from parawire.indexer import stored_vectors

    settings = load_settings(data_dir=data_dir)
    with _connect(data_dir) as conn:
        languages = [row[0] for row in conn.execute("SELECT DISTINCT language FROM sentences")]
    counts = {}
    for language in languages:
        try:
            counts[language] = stored_vectors(settings, language).count()
        except ParawireError:
            counts[language] = 0
    return counts


def annotation_integrity(data_dir: Path) -> dict[str, int]:
    """Articles left unannotated, and sentences stored twice (same article and position)."""
    with _connect(data_dir) as conn:
        return {
            "articles_without_sentences": conn.execute(
                "SELECT count(*) FROM articles a WHERE NOT EXISTS "
                "(SELECT 1 FROM sentences s WHERE s.article_id = a.id)").fetchone()[0],
            "sentences": conn.execute("SELECT count(*) FROM sentences").fetchone()[0],
            "repeated_positions": conn.execute(
                "SELECT count(*) - count(DISTINCT article_id || ':' || position) "
                "FROM sentences").fetchone()[0]}


def story_sizes(data_dir: Path) -> dict[str, Any]:
    """Stories by article count and by outlet count."""
    with _connect(data_dir) as conn:
        rows = conn.execute("SELECT article_count, json_array_length(outlets) FROM stories"
                            ).fetchall()
    by_articles = Counter(min(articles, 10) for articles, _ in rows)
    return {"stories": len(rows),
            "multi_outlet": sum(1 for _, outlets in rows if outlets > 1),
            "by_articles": {("10+" if k == 10 else str(k)): v
                            for k, v in sorted(by_articles.items())},
            "largest": max((articles for articles, _ in rows), default=0)}


def pair_breakdown(data_dir: Path, run_id: int) -> dict[str, dict[str, int]]:
    """A run's stored pairs by grade, by direction and by candidate source."""
    with _connect(data_dir) as conn:
        def counted(column: str) -> dict[str, int]:
            rows = conn.execute(f"SELECT {column}, count(*) FROM pairs WHERE run_id = ? "
                                f"GROUP BY 1 ORDER BY 1", (run_id,)).fetchall()
            return {str(value): count for value, count in rows}
        return {"by_grade": counted("grade"), "by_direction": counted("direction"),
                "by_source": counted("source")}


def _pair_rows(data_dir: Path, run_id: int) -> set[tuple]:
    with _connect(data_dir) as conn:
        return set(conn.execute(f"SELECT {', '.join(PAIR_ROW)} FROM pairs WHERE run_id = ?",
                                (run_id,)))


def compare_runs(eager: tuple[Path, int], workers: tuple[Path, int]) -> dict[str, Any]:
    """Two runs over copies of one store compared row by row (sentence ids agree because
    the workers' store was copied from the eager one before either run)."""
    a, b = _pair_rows(*eager), _pair_rows(*workers)
    return {"eager_pairs": len(a), "worker_pairs": len(b), "same_rows": len(a & b),
            "only_eager": sorted(a - b)[:10], "only_workers": sorted(b - a)[:10],
            "identical": a == b, "compared": list(PAIR_ROW)}
