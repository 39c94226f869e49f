"""The pair browser's query: filters on text, entity, outlet, day and score, newest first."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any, Self

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, Field, model_validator

from parawire.store import Store, schema

MAX_PAGE = 100


class PairFilters(BaseModel):
    """What an operator searches pairs by; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    q: str | None = Field(None, max_length=200, description="Text in either sentence.")
    entity: str | None = Field(None, max_length=100,
                               description="A proper noun of either sentence (part of it).")
    outlet: str | None = Field(None, max_length=200, description="Outlet of either sentence.")
    since: date | None = Field(None, description="Either sentence published on or after.")
    until: date | None = Field(None, description="Either sentence published on or before.")
    min_score: float | None = Field(None, ge=0, le=1)
    max_score: float | None = Field(None, ge=0, le=1)
    run: int | None = Field(None, ge=1, le=2**31 - 1, description="Alignment run id.")
    before: int | None = Field(None, ge=1, le=2**31 - 1,
                               description="Only pairs with a smaller id (the next page).")
    limit: int = Field(20, ge=1, le=MAX_PAGE)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        if self.since and self.until and self.since > self.until:
            raise ValueError("since is after until")
        if self.min_score is not None and self.max_score is not None \
                and self.min_score > self.max_score:
            raise ValueError("min_score is above max_score")
        return self


@dataclass(slots=True)
class Side:
    """One sentence of a pair with its article."""

    sentence_id: int
    text: str
    source: str
    published: date | None
    article_id: int
    article_url: str
    article_title: str


@dataclass(slots=True)
class PairView:
    """A pair as the browser and the review page show it."""

    id: int
    run_id: int
    score: float
    raw_score: float
    shared_pn: int
    shared_cn: int
    input: Side
    target: Side


_INPUT, _TARGET = schema.sentences.alias("input_sentence"), schema.sentences.alias("target_sentence")
_INPUT_ARTICLE = schema.articles.alias("input_article")
_TARGET_ARTICLE = schema.articles.alias("target_article")


def _side_columns(sentence: Any, article: Any, prefix: str) -> list[Any]:
    return [sentence.c.id.label(f"{prefix}_id"), sentence.c.text.label(f"{prefix}_text"),
            sentence.c.source.label(f"{prefix}_source"),
            sentence.c.published.label(f"{prefix}_published"),
            sentence.c.article_id.label(f"{prefix}_article_id"),
            article.c.url.label(f"{prefix}_url"), article.c.title.label(f"{prefix}_title")]


def _pair_select() -> sa.Select:
    pairs = schema.pairs
    return (
        sa.select(pairs, *_side_columns(_INPUT, _INPUT_ARTICLE, "input"),
                  *_side_columns(_TARGET, _TARGET_ARTICLE, "target"))
        .join(_INPUT, _INPUT.c.id == pairs.c.input_sentence_id)
        .join(_TARGET, _TARGET.c.id == pairs.c.target_sentence_id)
        .join(_INPUT_ARTICLE, _INPUT_ARTICLE.c.id == _INPUT.c.article_id)
        .join(_TARGET_ARTICLE, _TARGET_ARTICLE.c.id == _TARGET.c.article_id)
    )


def _side(row: Any, prefix: str) -> Side:
    return Side(
        sentence_id=row._mapping[f"{prefix}_id"], text=row._mapping[f"{prefix}_text"],
        source=row._mapping[f"{prefix}_source"], published=row._mapping[f"{prefix}_published"],
        article_id=row._mapping[f"{prefix}_article_id"], article_url=row._mapping[f"{prefix}_url"],
        article_title=row._mapping[f"{prefix}_title"],
    )


def _view(row: Any) -> PairView:
    return PairView(id=row.id, run_id=row.run_id, score=row.score, raw_score=row.raw_score,
                    shared_pn=row.shared_pn, shared_cn=row.shared_cn,
                    input=_side(row, "input"), target=_side(row, "target"))


def stored_json_fragment(term: str) -> str:
    """A proper noun as it appears inside the stored JSON list (casefolded, JSON-escaped)."""
    return json.dumps(term.strip().casefold())[1:-1]


def _in_window(day: Any, since: date | None, until: date | None) -> Any:
    return sa.and_(*([day >= since] if since else []), *([day <= until] if until else []))


def _text_contains(column: Any, term: str, dialect: str) -> Any:
    """Case-insensitive substring match. SQLite's LIKE already ignores (ASCII) case, as its
    lower() folds only ASCII too, so there the plain LIKE matches the same rows without
    calling lower() on every stored text; elsewhere, lower() on both sides."""
    if dialect == "sqlite":
        return column.contains(term, autoescape=True)
    return column.icontains(term, autoescape=True)


def _conditions(filters: PairFilters, dialect: str) -> list[Any]:
    pairs = schema.pairs
    found: list[Any] = []
    if filters.run is not None:
        found.append(pairs.c.run_id == filters.run)
    if filters.before is not None:
        found.append(pairs.c.id < filters.before)
    if filters.q and filters.q.strip():
        term = filters.q.strip()
        found.append(sa.or_(_text_contains(_INPUT.c.text, term, dialect),
                            _text_contains(_TARGET.c.text, term, dialect)))
    if filters.entity and filters.entity.strip():
        fragment = stored_json_fragment(filters.entity)
        found.append(sa.or_(
            *(sa.cast(side.c.proper_nouns, sa.Text).contains(fragment, autoescape=True)
              for side in (_INPUT, _TARGET))))
    if filters.outlet:
        found.append(sa.or_(_INPUT.c.source == filters.outlet, _TARGET.c.source == filters.outlet))
    if filters.since or filters.until:
        found.append(sa.or_(*(_in_window(side.c.published, filters.since, filters.until)
                              for side in (_INPUT, _TARGET))))
    if filters.min_score is not None:
        found.append(pairs.c.score >= filters.min_score)
    if filters.max_score is not None:
        found.append(pairs.c.score <= filters.max_score)
    return found


def search_pairs(store: Store, filters: PairFilters) -> tuple[list[PairView], int | None]:
    """One page of matching pairs, newest first, and the `before` of the next page (or None)."""
    query = (_pair_select().where(*_conditions(filters, store.engine.dialect.name))
             .order_by(schema.pairs.c.id.desc()).limit(filters.limit + 1))
    with store.engine.connect() as conn:
        views = [_view(row) for row in conn.execute(query)]
    if len(views) > filters.limit:
        views = views[:filters.limit]
        return views, views[-1].id
    return views, None


def pairs_by_id(store: Store, pair_ids: list[int]) -> list[PairView]:
    """The pairs with these ids, in the order given."""
    if not pair_ids:
        return []
    query = _pair_select().where(schema.pairs.c.id.in_(pair_ids))
    with store.engine.connect() as conn:
        found = {view.id: view for view in map(_view, conn.execute(query))}
    return [found[i] for i in pair_ids if i in found]
