"""Stories: the articles of one event, and what the aligner asks of them (the other outlets'
sentences of a sentence's story)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from parawire.records import TITLE_POSITION, Story, StoryDay, StoryInput
from parawire.store import schema
from parawire.store.base import StoreBase


def _values(story: Story) -> dict[str, object]:
    return {"language": story.language, "first_day": story.first_day, "last_day": story.last_day,
            "headline": story.headline, "outlets": sorted(set(story.outlets)),
            "article_count": len(story.article_ids)}


class StoryQueries(StoreBase):
    """Stories and their articles; an article belongs to at most one story."""

    def save_stories(self, stories: list[Story]) -> list[int]:
        """Store new stories (id None) and update stored ones, with their articles, in one
        transaction; an article listed by a story leaves the story it was in. Returns the ids,
        in order, and sets them on the records."""
        table, members = schema.stories, schema.story_articles

        def save(conn: Connection) -> list[int]:
            ids: list[int] = []
            for story in stories:
                if story.id is None:
                    story.id = conn.execute(table.insert().values(_values(story))
                                            ).inserted_primary_key[0]
                else:
                    conn.execute(table.update().where(table.c.id == story.id)
                                 .values(_values(story)))
                    conn.execute(members.delete().where(members.c.story_id == story.id))
                if story.article_ids:
                    conn.execute(members.delete().where(
                        members.c.article_id.in_(sorted(set(story.article_ids)))))
                    conn.execute(members.insert(), [{"article_id": a, "story_id": story.id}
                                                    for a in sorted(set(story.article_ids))])
                ids.append(story.id)
            return ids

        return self._transaction(save)

    def story(self, story_id: int) -> Story | None:
        """One story by id, with its articles."""
        found = self._stories([schema.stories.c.id == story_id])
        return found[0] if found else None

    def stories_between(self, language: str, since: date | None = None,
                        until: date | None = None) -> list[Story]:
        """A language's stories that have a day within [since, until] (either end open), in id
        order; stories without a day are listed when neither end is given."""
        table = schema.stories
        conditions = [table.c.language == language]
        if since is not None:
            conditions.append(table.c.last_day >= since)
        if until is not None:
            conditions.append(table.c.first_day <= until)
        return self._stories(conditions)

    def stories_after(self, after: int, limit: int) -> list[Story]:
        """Up to `limit` stories with an id above `after`, in id order (every language)."""
        return self._stories([schema.stories.c.id > after], limit)

    def story_totals(self) -> tuple[int, int]:
        """How many stories there are, and how many articles they hold."""
        table = schema.stories
        with self.engine.connect() as conn:
            stories, articles = conn.execute(
                sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(table.c.article_count), 0))
            ).one()
        return int(stories), int(articles)

    def _stories(self, conditions: list[sa.ColumnElement[bool]],
                 limit: int | None = None) -> list[Story]:
        """The stories meeting `conditions` (the first `limit` by id), with their articles:
        two queries, the members read through a join on the same stories (a list of 130
        story ids bound one by one cost more to send than to answer)."""
        table, members = schema.stories, schema.story_articles
        chosen = sa.select(table.c.id).where(*conditions).order_by(table.c.id).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(table).where(table.c.id.in_(chosen))
                                .order_by(table.c.id)).all()
            articles: dict[int, list[int]] = defaultdict(list)
            for story_id, article_id in conn.execute(
                    sa.select(members.c.story_id, members.c.article_id)
                    .where(members.c.story_id.in_(chosen)).order_by(members.c.article_id)).all():
                articles[story_id].append(article_id)
        return [Story(id=row.id, language=row.language, first_day=row.first_day,
                      last_day=row.last_day, article_ids=articles[row.id], outlets=row.outlets,
                      headline=row.headline) for row in rows]

    def stories_of_articles(self, article_ids: Iterable[int]) -> dict[int, int]:
        """The story of each article that has one."""
        members = schema.story_articles
        wanted = sorted(set(article_ids))
        found: dict[int, int] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 1000):
                found.update(conn.execute(
                    sa.select(members.c.article_id, members.c.story_id)
                    .where(members.c.article_id.in_(wanted[start:start + 1000]))).all())
        return found

    def story_partners(self, sentence_ids: Iterable[int]) -> dict[int, tuple[int, list[int]]]:
        """For each of these sentences whose article is in a story: the story's id and the ids
        of the story's sentences of its kind (a title: the titles; else the text sentences)
        from other outlets (in id order)."""
        sentences, members = schema.sentences, schema.story_articles
        title = (sentences.c.position == TITLE_POSITION).label("title")
        wanted = sorted(set(sentence_ids))
        story_of: dict[int, tuple[int, str, bool]] = {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 1000):
                story_of.update((row.id, (row.story_id, row.source, bool(row.title)))
                                for row in conn.execute(
                    sa.select(sentences.c.id, sentences.c.source, members.c.story_id, title)
                    .join(members, members.c.article_id == sentences.c.article_id)
                    .where(sentences.c.id.in_(wanted[start:start + 1000]))))
            story_ids = sorted({story for story, _, _ in story_of.values()})
            by_story: dict[int, list[tuple[int, str, bool]]] = defaultdict(list)
            for start in range(0, len(story_ids), 1000):
                for row in conn.execute(
                        sa.select(sentences.c.id, sentences.c.source, members.c.story_id, title)
                        .join(members, members.c.article_id == sentences.c.article_id)
                        .where(members.c.story_id.in_(story_ids[start:start + 1000]))
                        .order_by(sentences.c.id)):
                    by_story[row.story_id].append((row.id, row.source, bool(row.title)))
        return {sid: (story, [other for other, source, is_title in by_story[story]
                              if source != outlet and is_title == kind])
                for sid, (story, outlet, kind) in story_of.items()}

    def story_days(self, limit: int = 60) -> list[StoryDay]:
        """Per day on which stories opened (newest first, `limit` days): the stories, those
        told by two or more outlets, and their articles (counted in the database)."""
        table = schema.stories
        several = sa.case((sa.func.json_array_length(table.c.outlets) >= 2, 1), else_=0)
        query = (sa.select(table.c.first_day, sa.func.count(), sa.func.sum(several),
                           sa.func.sum(table.c.article_count))
                 .where(table.c.first_day.is_not(None)).group_by(table.c.first_day)
                 .order_by(table.c.first_day.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [StoryDay(day, stories, int(multi), int(articles))
                    for day, stories, multi, articles in conn.execute(query)]

    def stories_opened_on(self, day: date) -> list[Story]:
        """The stories whose first day is `day`, in id order."""
        return self._stories([schema.stories.c.first_day == day])

    def articles_without_story(self, lead_chars: int) -> list[StoryInput]:
        """Every article in no story (in id order), with the first `lead_chars` characters
        of its text."""
        members = schema.story_articles
        query = (_input_query(lead_chars)
                 .outerjoin(members, members.c.article_id == schema.articles.c.id)
                 .where(members.c.story_id.is_(None)))
        with self.engine.connect() as conn:
            return [_input(row) for row in conn.execute(query.order_by(schema.articles.c.id))]

    def story_inputs(self, article_ids: Iterable[int], lead_chars: int) -> dict[int, StoryInput]:
        """These articles, by id, with the first `lead_chars` characters of their text."""
        wanted, found = sorted(set(article_ids)), {}
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), 1000):
                query = _input_query(lead_chars).where(
                    schema.articles.c.id.in_(wanted[start:start + 1000]))
                found.update((row.id, _input(row)) for row in conn.execute(query))
        return found

    def delete_stories(self, story_ids: Iterable[int]) -> int:
        """Remove these stories (their articles are then in none, their pairs keep the id
        they were found in); returns how many were removed."""
        wanted = sorted(set(story_ids))
        table, members = schema.stories, schema.story_articles

        def delete(conn: Connection) -> int:
            removed = 0
            for start in range(0, len(wanted), 1000):
                chunk = wanted[start:start + 1000]
                conn.execute(members.delete().where(members.c.story_id.in_(chunk)))
                removed += conn.execute(table.delete().where(table.c.id.in_(chunk))).rowcount
            return removed

        return self._transaction(delete)

    def story_counts(self) -> dict[str, int]:
        """Stories, those told by two or more outlets, singletons, and articles in none."""
        table, members, articles = schema.stories, schema.story_articles, schema.articles
        with self.engine.connect() as conn:
            sizes = conn.execute(sa.select(table.c.outlets, table.c.article_count)).all()
            grouped = conn.execute(sa.select(sa.func.count()).select_from(members)).scalar_one()
            total = conn.execute(sa.select(sa.func.count()).select_from(articles)).scalar_one()
        return {"stories": len(sizes),
                "multi_outlet_stories": sum(1 for row in sizes if len(row.outlets) >= 2),
                "single_article_stories": sum(1 for row in sizes if row.article_count == 1),
                "articles_in_no_story": total - grouped}


def _input_query(lead_chars: int) -> sa.Select:
    articles = schema.articles
    return sa.select(articles.c.id, articles.c.source, articles.c.language, articles.c.published,
                     articles.c.crawled_at, articles.c.title,
                     sa.func.substr(articles.c.text, 1, max(lead_chars, 1)).label("lead"))


def _input(row: sa.Row) -> StoryInput:
    return StoryInput(id=row.id, source=row.source, language=row.language,
                      published=row.published, crawled_day=row.crawled_at.date(),
                      title=row.title, lead=row.lead)
