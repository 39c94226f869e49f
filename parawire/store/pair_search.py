"""Pairs with their sentences and articles: filtered keyset search, and lookup by id."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa

from parawire.records import PairListing, PairQuery, PairSide
from parawire.store import schema
from parawire.store.base import StoreBase

_INPUT, _TARGET = schema.sentences.alias("input_sentence"), schema.sentences.alias("target_sentence")
_INPUT_ARTICLE = schema.articles.alias("input_article")
_TARGET_ARTICLE = schema.articles.alias("target_article")


class PairSearchQueries(StoreBase):
    """The pair browser's and the review page's reads."""

    def search_pairs(self, query: PairQuery) -> tuple[list[PairListing], int | None]:
        """One page of matching pairs, newest first, and the `before` of the next page (or None)."""
        select = (_pair_select().where(*_conditions(query, self.engine.dialect.name))
                  .order_by(schema.pairs.c.id.desc()).limit(query.limit + 1))
        with self.engine.connect() as conn:
            found = [_listing(row) for row in conn.execute(select)]
        if len(found) > query.limit:
            found = found[:query.limit]
            return found, found[-1].id
        return found, None

    def pairs_by_id(self, pair_ids: Sequence[int]) -> list[PairListing]:
        """The pairs with these ids, in the order given."""
        if not pair_ids:
            return []
        select = _pair_select().where(schema.pairs.c.id.in_(pair_ids))
        with self.engine.connect() as conn:
            found = {listing.id: listing for listing in map(_listing, conn.execute(select))}
        return [found[i] for i in pair_ids if i in found]


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


def _side(row: Any, prefix: str) -> PairSide:
    values = row._mapping
    return PairSide(
        sentence_id=values[f"{prefix}_id"], text=values[f"{prefix}_text"],
        source=values[f"{prefix}_source"], published=values[f"{prefix}_published"],
        article_id=values[f"{prefix}_article_id"], article_url=values[f"{prefix}_url"],
        article_title=values[f"{prefix}_title"],
    )


def _listing(row: Any) -> PairListing:
    return PairListing(id=row.id, run_id=row.run_id, score=row.score, raw_score=row.raw_score,
                       shared_pn=row.shared_pn, shared_cn=row.shared_cn,
                       input=_side(row, "input"), target=_side(row, "target"))


def _stored_json_fragment(term: str) -> str:
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


def _conditions(query: PairQuery, dialect: str) -> list[Any]:
    """The query's filters as SQL expressions (LIKE patterns escaped)."""
    pairs = schema.pairs
    found: list[Any] = []
    if query.run is not None:
        found.append(pairs.c.run_id == query.run)
    if query.before is not None:
        found.append(pairs.c.id < query.before)
    if query.q and query.q.strip():
        term = query.q.strip()
        found.append(sa.or_(_text_contains(_INPUT.c.text, term, dialect),
                            _text_contains(_TARGET.c.text, term, dialect)))
    if query.entity and query.entity.strip():
        fragment = _stored_json_fragment(query.entity)
        found.append(sa.or_(
            *(sa.cast(side.c.proper_nouns, sa.Text).contains(fragment, autoescape=True)
              for side in (_INPUT, _TARGET))))
    if query.outlet:
        found.append(sa.or_(_INPUT.c.source == query.outlet, _TARGET.c.source == query.outlet))
    if query.since or query.until:
        found.append(sa.or_(*(_in_window(side.c.published, query.since, query.until)
                              for side in (_INPUT, _TARGET))))
    if query.min_score is not None:
        found.append(pairs.c.score >= query.min_score)
    if query.max_score is not None:
        found.append(pairs.c.score <= query.max_score)
    return found
