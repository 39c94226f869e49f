"""Records from stored rows, and rows from records."""

from __future__ import annotations

from dataclasses import asdict, fields
from datetime import datetime
from typing import Any, TypeVar

from parawire.records import Article, Collocation, OutletHealth, Pair, Reach, Run, Sentence

RunT = TypeVar("RunT", bound=Run)


def article_record(row: Any) -> Article:
    """An Article from a row of `articles`."""
    return Article(
        id=row.id, url=row.url, canonical_url=row.canonical_url, source=row.source,
        language=row.language, topic=row.topic, published=row.published,
        crawled_at=row.crawled_at, title=row.title, text=row.text, author=row.author,
        content_hash=row.content_hash, syndicated_of=row.syndicated_of,
    )


def sentence_values(s: Sentence) -> dict[str, Any]:
    """The `sentences` row of a Sentence."""
    return {
        "article_id": s.article_id, "position": s.position, "text": s.text,
        "tokens": s.tokens, "lemmas": s.lemmas, "pos": s.pos,
        "entities": [list(e) for e in s.entities], "proper_nouns": s.proper_nouns,
        "entity_keys": s.entity_keys, "common_nouns": s.common_nouns,
        "collocations": [{"text": c.text, "lemma": c.lemma, "pos": c.pos} for c in s.collocations],
        "language": s.language, "topic": s.topic, "published": s.published, "source": s.source,
    }


def sentence_record(row: Any) -> Sentence:
    """A Sentence from a row of `sentences`."""
    return Sentence(
        id=row.id, article_id=row.article_id, position=row.position, text=row.text,
        tokens=row.tokens, lemmas=row.lemmas, pos=row.pos,
        entities=[(text, label) for text, label in row.entities],
        proper_nouns=row.proper_nouns, entity_keys=row.entity_keys,
        common_nouns=row.common_nouns,
        collocations=[Collocation(**c) for c in row.collocations],
        language=row.language, topic=row.topic, published=row.published, source=row.source,
    )


def run_record(cls: type[RunT], row: Any) -> RunT:
    """A crawl or alignment run from its row."""
    return cls(
        id=row.id, parameters=row.parameters, status=row.status, started_at=row.started_at,
        finished_at=row.finished_at, counts=row.counts, reason=row.reason or "",
    )


_HEALTH_TIMES = ("last_success", "last_error_at")
_HEALTH_FIELDS = {f.name for f in fields(OutletHealth)}


def health_values(health: OutletHealth) -> dict[str, Any]:
    """An outlet's health as JSON values (times in ISO 8601)."""
    values = asdict(health)
    values["state"] = str(health.state)
    for name in _HEALTH_TIMES:
        values[name] = values[name].isoformat() if values[name] is not None else None
    return values


def health_record(values: dict[str, Any]) -> OutletHealth:
    """An outlet's health from its JSON values (fields it does not know are left out)."""
    known = {k: v for k, v in values.items() if k in _HEALTH_FIELDS}
    known["state"] = Reach(known["state"])
    for name in _HEALTH_TIMES:
        if known.get(name):
            known[name] = datetime.fromisoformat(known[name])
    return OutletHealth(**known)


def pair_values(p: Pair) -> dict[str, Any]:
    """The `pairs` row of a Pair."""
    return {
        "run_id": p.run_id, "input_sentence_id": p.input_sentence_id,
        "target_sentence_id": p.target_sentence_id, "score": p.score,
        "raw_score": p.raw_score, "shared_pn": p.shared_pn, "shared_cn": p.shared_cn,
        "probability": p.probability, "features": p.features, "story_id": p.story_id,
        "source": p.source, "grade": p.grade, "direction": p.direction,
        "grade_probabilities": p.grade_probabilities,
    }


def pair_record(row: Any) -> Pair:
    """A Pair from a row of `pairs`."""
    return Pair(
        run_id=row.run_id, input_sentence_id=row.input_sentence_id,
        target_sentence_id=row.target_sentence_id, score=row.score, raw_score=row.raw_score,
        shared_pn=row.shared_pn, shared_cn=row.shared_cn, probability=row.probability,
        features=row.features or {}, story_id=row.story_id, source=row.source,
        grade=row.grade, direction=row.direction,
        grade_probabilities=row.grade_probabilities or [],
    )
