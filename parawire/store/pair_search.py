"""Pairs with their sentences and articles: filtered keyset search, and lookup by id."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

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
        dialect = self.engine.dialect.name
        with self.engine.connect() as conn:
            rows = _newest_window_rows(conn, query) if dialect == "sqlite" else None
            if rows is None:
                rows = conn.execute(search_select(query, dialect)).all()
        found = [_listing(row) for row in rows]
        if len(found) > query.limit:
            found = found[:query.limit]
            return found, found[-1].id
        return found, None

    def pairs_by_id(self, pair_ids: Sequence[int]) -> list[PairListing]:
        """The pairs with these ids, in the order given."""
        if not pair_ids:
            return []
        with self.engine.connect() as conn:
            if self.engine.dialect.name == "postgresql":
                rows = conn.execute(_pairs_in_array(), {"ids": list(pair_ids)})
            else:
                rows = conn.execute(_pair_select().where(schema.pairs.c.id.in_(pair_ids)))
            found = {listing.id: listing for listing in map(_listing, rows)}
        return [found[i] for i in pair_ids if i in found]

    def pairs_after(self, after: int, limit: int) -> list[PairListing]:
        """Up to `limit` pairs with an id above `after`, in id order (every run)."""
        select = (_pair_select().where(schema.pairs.c.id > after)
                  .order_by(schema.pairs.c.id).limit(limit))
        with self.engine.connect() as conn:
            return [_listing(row) for row in conn.execute(select)]


def search_select(query: PairQuery, dialect: str,
                  *also: sa.ColumnElement[bool]) -> sa.Select:
    """The SELECT of one page of matching pairs (and one more), newest first, meeting
    `also` too: the page's pair ids first, the pairs' sentences joined only where a filter
    reads them, then those ids' rows with their sentences and articles. (Joined before the
    page was cut, PostgreSQL looked up the sentences and articles of every match: of 188
    for a name, to show 21.)"""
    pairs = schema.pairs
    ids = sa.select(pairs.c.id)
    if _reads_sides(query):
        ids = (ids.join(_INPUT, _INPUT.c.id == pairs.c.input_sentence_id)
               .join(_TARGET, _TARGET.c.id == pairs.c.target_sentence_id))
    page = (ids.where(*_conditions(query, dialect), *also).order_by(pairs.c.id.desc())
            .limit(query.limit + 1))
    return _pair_select().where(pairs.c.id.in_(page.scalar_subquery())).order_by(pairs.c.id.desc())


# SQLite has no statistics of value ranges (no STAT4), so given a grade or direction filter
# it reads every pair of that grade and direction through ix_pairs_direction_grade_id and
# sorts them by id, even when most pairs match (35 ms for a page at 100k pairs) or when a
# story, text or name filter leaves a few pairs to read. With one of those filters the
# grade and direction are marked likely (the planner then reads that filter's index); with
# none, the search looks among the newest NEWEST_WINDOW pairs first (by id, 0.1 ms) and
# asks the grade index only when that window holds less than a page: a rare grade and
# direction, for which the index is the fast way.
NEWEST_WINDOW = 2000
LIKELY = "0.9"  # SQLite's likelihood() of a grade or direction term beside a narrower filter


def _narrowed(query: PairQuery) -> bool:
    """Whether a filter with an index of its own (story, text, name) narrows the search."""
    return bool(query.story is not None or (query.q and query.q.strip())
                or (query.entity and query.entity.strip()))


def _newest_window_rows(conn: sa.Connection, query: PairQuery) -> list[Any] | None:
    """A page (and one more) of a grade or direction search found among the newest
    NEWEST_WINDOW pairs of the run and `before` asked for, or None: another filter (or
    none) narrows the search, or the window holds less than a page of matches."""
    if (query.min_grade is None and query.direction is None) or _narrowed(query):
        return None
    pairs = schema.pairs
    ordered = [*([pairs.c.run_id == query.run] if query.run is not None else []),
               *([pairs.c.id < query.before] if query.before is not None else [])]
    floor = conn.execute(sa.select(pairs.c.id).where(*ordered).order_by(pairs.c.id.desc())
                         .offset(NEWEST_WINDOW - 1).limit(1)).scalar()
    if floor is None:  # fewer pairs than the window: the plain search reads no more
        return None
    rows = conn.execute(search_select(query, "sqlite", pairs.c.id >= floor)).all()
    return rows if len(rows) > query.limit else None


def _side_columns(sentence: Any, article: Any, prefix: str) -> list[Any]:
    return [sentence.c.id.label(f"{prefix}_id"), sentence.c.text.label(f"{prefix}_text"),
            sentence.c.source.label(f"{prefix}_source"),
            sentence.c.published.label(f"{prefix}_published"),
            sentence.c.article_id.label(f"{prefix}_article_id"),
            article.c.url.label(f"{prefix}_url"), article.c.title.label(f"{prefix}_title")]


@functools.cache
def _pair_select() -> sa.Select:
    """Pairs with both sentences and their articles (built once: each search narrows a
    copy, and building it took 0.3 ms a request)."""
    pairs = schema.pairs
    return (
        sa.select(pairs, *_side_columns(_INPUT, _INPUT_ARTICLE, "input"),
                  *_side_columns(_TARGET, _TARGET_ARTICLE, "target"))
        .join(_INPUT, _INPUT.c.id == pairs.c.input_sentence_id)
        .join(_TARGET, _TARGET.c.id == pairs.c.target_sentence_id)
        .join(_INPUT_ARTICLE, _INPUT_ARTICLE.c.id == _INPUT.c.article_id)
        .join(_TARGET_ARTICLE, _TARGET_ARTICLE.c.id == _TARGET.c.article_id)
    )


@functools.cache
def _pairs_in_array() -> sa.Select:
    """The pairs whose id is in the array :ids (PostgreSQL): one statement for any number of
    ids, so it is prepared once a connection and planned once (an IN list of each length
    was a new statement, planned each time: 1.6 ms for 10 pairs, now 0.6 ms)."""
    ids = sa.bindparam("ids", type_=postgresql.ARRAY(sa.Integer))
    return _pair_select().where(schema.pairs.c.id == sa.any_(ids))


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
                       input=_side(row, "input"), target=_side(row, "target"),
                       probability=row.probability, story_id=row.story_id,
                       grade=row.grade, direction=row.direction)


# The trigram index answers name parts this long or longer; a shorter one is matched by
# scanning the pairs' sentences.
MIN_TRIGRAM = 3
_WORD = re.compile(r"[^\W_]+")


def _stored_json_fragment(term: str) -> str:
    """An entity name as it appears inside the stored JSON list (casefolded, JSON-escaped)."""
    return json.dumps(term.strip().casefold())[1:-1]


def _like_pattern(term: str) -> str:
    """`%term%` with LIKE's wildcards escaped (escape character '/')."""
    return "%" + term.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"


def _in_window(day: Any, since: date | None, until: date | None) -> Any:
    return sa.and_(*([day >= since] if since else []), *([day <= until] if until else []))


def _entity_text(sentence: Any) -> Any:
    return sa.cast(sentence.c[schema.ENTITY_COLUMN], sa.Text)


def _either_side(sentence_ids: sa.Select, name: str, dialect: str) -> Any:
    """Pairs whose input or target sentence is among `sentence_ids`, through the pairs'
    sentence indexes, so no sentence outside the matches is read. On PostgreSQL the ids are
    one array that both indexes are asked for (a bitmap OR): as a union of pair ids, the
    planner joined it to every pair by id, newest first (1.5 ms for 84 matches, not 0.4)."""
    pairs = schema.pairs
    found = sentence_ids.cte(name)
    if dialect == "postgresql":
        return sa.or_(*(side == sa.any_(sa.func.array(sa.select(found).scalar_subquery()))
                        for side in (pairs.c.input_sentence_id, pairs.c.target_sentence_id)))
    return pairs.c.id.in_(sa.union(
        sa.select(pairs.c.id).where(pairs.c.input_sentence_id.in_(sa.select(found))),
        sa.select(pairs.c.id).where(pairs.c.target_sentence_id.in_(sa.select(found)))))


def _fts5(table: str, expression: str) -> sa.Select:
    search = sa.table(table, sa.column("rowid"))
    return sa.select(search.c.rowid).where(sa.literal_column(table).op("MATCH")(expression))


def _words_match(q: str, dialect: str) -> Any:
    """Pairs either of whose sentences holds the words of `q` in a row (case folded), from
    the full-text index; `q` without any word (say "%") is looked for as it is, by a scan.
    (Whole words only: a prefix like "word*" would read every word it starts.)"""
    words = _WORD.findall(q.casefold())
    if not words:
        return sa.or_(*(side.c.text.ilike(_like_pattern(q), escape="/")
                        for side in (_INPUT, _TARGET)))
    if dialect == "sqlite":
        return _either_side(_fts5(schema.TEXT_SEARCH, f'"{" ".join(words)}"'), "text_matches",
                            dialect)
    query = " <-> ".join(words)
    sentences = schema.sentences
    words_only = sa.func.regexp_replace(sentences.c.text, sa.literal_column("'[^[:alnum:]]+'"),
                                        sa.literal_column("' '"), sa.literal_column("'g'"))
    vector = sa.func.to_tsvector(sa.literal_column("'simple'"), words_only)
    return _either_side(sa.select(sentences.c.id).where(
        vector.op("@@")(sa.func.to_tsquery(sa.literal_column("'simple'"), query))),
        "text_matches", dialect)


def _name_match(entity: str, dialect: str) -> Any:
    """Pairs either of whose sentences has an entity name containing `entity`: on SQLite
    from the FTS5 trigram table, on PostgreSQL the names matching by trigram index, then
    their sentences (a part shorter than MIN_TRIGRAM by a scan)."""
    fragment = _stored_json_fragment(entity)
    if len(fragment) < MIN_TRIGRAM:
        return sa.or_(*(_entity_text(side).like(_like_pattern(fragment), escape="/")
                        for side in (_INPUT, _TARGET)))
    if dialect == "sqlite":
        phrase = '"' + fragment.replace('"', '""') + '"'
        return _either_side(_fts5(schema.NAME_SEARCH, phrase), "name_matches", dialect)
    names = sa.table(schema.ENTITY_NAMES, sa.column("id"), sa.column("name"))
    links = sa.table(schema.SENTENCE_ENTITY_NAMES, sa.column("name_id"), sa.column("sentence_id"))
    matching = sa.select(names.c.id).where(
        names.c.name.like(_like_pattern(entity.strip().casefold()), escape="/"))
    return _either_side(sa.select(links.c.sentence_id).where(links.c.name_id.in_(matching)),
                        "name_matches", dialect)


def _reads_sides(query: PairQuery) -> bool:
    """Whether a filter reads the pair's sentences themselves: an outlet, a day, a text
    without any word, or a name part too short for the trigram index."""
    q, entity = (query.q or "").strip(), (query.entity or "").strip()
    return bool(query.outlet or query.since or query.until
                or (q and not _WORD.findall(q.casefold()))
                or (entity and len(_stored_json_fragment(entity)) < MIN_TRIGRAM))


def _conditions(query: PairQuery, dialect: str) -> list[Any]:
    """The query's filters as SQL expressions (text and entity search on indexes)."""
    pairs = schema.pairs
    found: list[Any] = []
    if query.run is not None:
        found.append(pairs.c.run_id == query.run)
    if query.story is not None:
        found.append(pairs.c.story_id == query.story)
    if query.before is not None:
        found.append(pairs.c.id < query.before)
    if query.q and query.q.strip():
        found.append(_words_match(query.q.strip(), dialect))
    if query.entity and query.entity.strip():
        found.append(_name_match(query.entity, dialect))
    if query.outlet:
        found.append(sa.or_(_INPUT.c.source == query.outlet, _TARGET.c.source == query.outlet))
    if query.since or query.until:
        found.append(sa.or_(*(_in_window(side.c.published, query.since, query.until)
                              for side in (_INPUT, _TARGET))))
    if query.min_score is not None:
        found.append(pairs.c.score >= query.min_score)
    if query.max_score is not None:
        found.append(pairs.c.score <= query.max_score)
    if query.min_probability is not None:
        found.append(pairs.c.probability >= query.min_probability)
    graded = [*([pairs.c.grade >= query.min_grade] if query.min_grade is not None else []),
              *([pairs.c.direction == query.direction] if query.direction is not None else [])]
    if dialect == "sqlite" and _narrowed(query):
        graded = [sa.func.likelihood(condition, sa.literal_column(LIKELY)) for condition in graded]
    return [*found, *graded]
