"""Volume per day, outlet, topic and language for articles, sentences, references, pairs."""

from __future__ import annotations

import threading
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from parawire.store import Store, schema

DIMENSIONS = ("day", "outlet", "topic", "language")
METRICS = ("articles", "sentences", "references", "pairs")
UNKNOWN = "unknown"
Breakdown = dict[str, dict[str, dict[str, int]]]  # dimension -> metric -> key -> count


def _grouped(columns: Any, select_from: Any) -> sa.Select:
    """Counts grouped by (day, outlet, topic, language) over some source of rows."""
    published, source, topic, language = columns
    return (sa.select(published, source, topic, language, sa.func.count())
            .select_from(select_from).group_by(published, source, topic, language))


def _queries() -> dict[str, sa.Select]:
    articles, sentences = schema.articles, schema.sentences
    sentence_columns = (sentences.c.published, sentences.c.source, sentences.c.topic,
                        sentences.c.language)
    references = schema.alignment_references.join(
        sentences, sentences.c.id == schema.alignment_references.c.sentence_id)
    pairs = schema.pairs.join(sentences, sentences.c.id == schema.pairs.c.input_sentence_id)
    return {
        "articles": _grouped((articles.c.published, articles.c.source, articles.c.topic,
                              articles.c.language), articles),
        "sentences": _grouped(sentence_columns, sentences),
        "references": _grouped(sentence_columns, references),
        "pairs": _grouped(sentence_columns, pairs),
    }


def compute_overview(store: Store) -> dict[str, Any]:
    """Totals and the per-dimension breakdowns (pairs and references by their input sentence)."""
    breakdown: Breakdown = {d: {m: defaultdict(int) for m in METRICS} for d in DIMENSIONS}
    totals = dict.fromkeys(METRICS, 0)
    with store.engine.connect() as conn:
        for metric, query in _queries().items():
            for published, source, topic, language, count in conn.execute(query):
                keys = (published.isoformat() if published else UNKNOWN, source or UNKNOWN,
                        topic or UNKNOWN, language or UNKNOWN)
                for dimension, key in zip(DIMENSIONS, keys, strict=True):
                    breakdown[dimension][metric][key] += count
                totals[metric] += count
    return {
        "totals": totals,
        "breakdowns": {d: {m: dict(sorted(counts.items())) for m, counts in by_metric.items()}
                       for d, by_metric in breakdown.items()},
    }


def _fingerprint(store: Store) -> tuple[int, ...]:
    """Cheap values that change whenever a table the overview counts changes."""
    query = sa.select(
        sa.select(sa.func.coalesce(sa.func.max(schema.articles.c.id), 0)).scalar_subquery(),
        sa.select(sa.func.count()).select_from(schema.articles).scalar_subquery(),
        sa.select(sa.func.coalesce(sa.func.max(schema.sentences.c.id), 0)).scalar_subquery(),
        sa.select(sa.func.count()).select_from(schema.sentences).scalar_subquery(),
        sa.select(sa.func.count()).select_from(schema.alignment_references).scalar_subquery(),
        sa.select(sa.func.coalesce(sa.func.max(schema.pairs.c.id), 0)).scalar_subquery(),
        sa.select(sa.func.count()).select_from(schema.pairs).scalar_subquery(),
    )
    with store.engine.connect() as conn:
        return tuple(conn.execute(query).one())


class OverviewCache:
    """The last overview, keyed by the store's fingerprint (checked on every request).

    The first overview is computed in the request. After that, when the fingerprint
    changes, a background thread recounts while requests get the previous overview marked
    `refreshing`, so no request waits for a full recount of a large store.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._key: tuple[int, ...] | None = None
        self._value: dict[str, Any] | None = None
        self._refresh: threading.Thread | None = None

    def get(self) -> dict[str, Any]:
        """The latest overview, with `as_of` and whether a newer one is being counted."""
        key = _fingerprint(self.store)
        with self._lock:
            if self._value is None:
                self._key, self._value = key, _stamped(compute_overview(self.store))
            elif key != self._key and (self._refresh is None or not self._refresh.is_alive()):
                self._refresh = threading.Thread(target=self._recount, args=(key,), daemon=True,
                                                 name="overview-recount")
                self._refresh.start()
            return {**self._value, "refreshing": key != self._key}

    def _recount(self, key: tuple[int, ...]) -> None:
        value = _stamped(compute_overview(self.store))
        with self._lock:
            self._key, self._value = key, value


def _stamped(overview: dict[str, Any]) -> dict[str, Any]:
    return {**overview, "as_of": datetime.now(UTC)}
