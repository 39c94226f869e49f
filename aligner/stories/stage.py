"""The stories stage: the articles in no story, one language and one day at a time, join
the stories open around their day or open new ones (aligner/stories/grouping.py)."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date, timedelta

from parawire.aligner.stories.grouping import StoryText, group_day, story_text
from parawire.config import Settings, StoriesConfig
from parawire.indexer import open_views
from parawire.records import Story, StoryInput
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import Store, store_of

CHARS_PER_WORD = 12  # enough characters read from the store for lead_words words


class StoriesScope(Scope):
    """Which days to group; with --redo, the stories of those days are grouped again."""

    since: date | None = option(None, "First day of articles.")
    until: date | None = option(None, "Last day of articles.")
    language: str | None = option(None, "Only articles in this language.", flag="--lang")
    redo: bool = option(False, "Group the window's stories again and say what moved.")


def stories(settings: Settings, scope: StoriesScope) -> Counts:
    """Group the articles in no story (within the scope) into stories; counts of what joined,
    opened, was skipped, and, on --redo, moved."""
    store, config = store_of(settings), settings.stories
    counts: Counter[str] = Counter()
    before: dict[int, frozenset[int]] = {}
    since, until = scope.since, scope.until
    if scope.redo:
        before, since, until = _clear_window(store, settings, scope)
    pending = _pending(store, settings, config, scope.language, since, until, counts)
    touched: dict[int, Story] = {}
    for language in sorted(pending):
        grouper = _Grouper(store, config, language)
        for day in sorted(pending[language]):
            touched.update(grouper.add_day(day, pending[language][day], counts))
    if scope.redo:
        after = _partition(store, before)
        counts["articles_moved"] = sum(1 for a in before if before[a] != after.get(a))
    views = open_views(settings)
    if views is not None:  # Elasticsearch: the stories view for Kibana, in step with the store
        counts["stories_published"] = views.publish_stories(touched.values())
        counts["stories_view_resynced"] = views.sync_stories(store)
    if not pending:
        return {"articles_grouped": 0, **counts,
                "note": "nothing to group: no dated article of a language with a pipeline is "
                        "outside a story in this window"}
    return dict(counts)


def _pending(store: Store, settings: Settings, config: StoriesConfig, language: str | None,
             since: date | None, until: date | None,
             counts: Counter[str]) -> dict[str, dict[date, list[StoryInput]]]:
    """The articles to group, by language and day; the undated ones skipped or placed on
    their crawl day ([stories] undated), those in a language without a pipeline counted."""
    languages = set(settings.nlp.languages)
    pending: dict[str, dict[date, list[StoryInput]]] = defaultdict(lambda: defaultdict(list))
    for article in store.articles_without_story(config.lead_words * CHARS_PER_WORD):
        if language is not None and article.language != language:
            continue
        day = article.published
        if day is None and config.undated == "crawl_day":
            day = article.crawled_day
        if (since is not None and (day or article.crawled_day) < since) or (
                until is not None and (day or article.crawled_day) > until):
            continue
        if article.language not in languages:
            counts["no_pipeline"] += 1
        elif day is None:
            counts["undated_skipped"] += 1
        else:
            pending[article.language][day].append(article)
    return pending


class _Grouper:
    """One language's grouping, day after day, with the texts of open stories kept."""

    def __init__(self, store: Store, config: StoriesConfig, language: str) -> None:
        self.store, self.config, self.language = store, config, language
        self.texts: dict[int, StoryText] = {}

    def _text(self, article: StoryInput, day: date) -> StoryText:
        return StoryText(article.id, article.source, day,
                         story_text(article.title, article.lead, self.config.lead_words))

    def add_day(self, day: date, articles: list[StoryInput],
                counts: Counter[str]) -> dict[int, Story]:
        """Place one day's articles and store what changed, in one transaction; returns the
        stories that changed, by id."""
        window = timedelta(days=self.config.window_days)
        open_stories = self.store.stories_between(self.language, day - window, day + window)
        missing = [a for s in open_stories for a in s.article_ids if a not in self.texts]
        for article in self.store.story_inputs(missing, self.config.lead_words * CHARS_PER_WORD
                                               ).values():
            self.texts[article.id] = self._text(article, article.published or article.crawled_day)
        new = [self._text(article, day) for article in articles]
        groups = group_day([[self.texts[a] for a in s.article_ids] for s in open_stories], new,
                           self.config)
        opened: dict[int, Story] = {}
        changed: dict[int, Story] = {}
        for text, group in zip(new, groups, strict=True):
            self.texts[text.id] = text
            if group < len(open_stories):
                story = changed.setdefault(group, open_stories[group])
                counts["joined_stories"] += 1
            else:
                story = opened.setdefault(group, Story(self.language, day, day, [],
                                                       headline=_headline(articles, text.id)))
            story.article_ids.append(text.id)
            story.outlets = sorted({*story.outlets, text.outlet})
            story.first_day = min(story.first_day or day, day)
            story.last_day = max(story.last_day or day, day)
        saved = [*changed.values(), *opened.values()]
        self.store.save_stories(saved)
        counts["articles_grouped"] += len(new)
        counts["stories_opened"] += len(opened)
        self._forget_before(day - 2 * window)
        return {story.id: story for story in saved if story.id is not None}

    def _forget_before(self, day: date) -> None:
        self.texts = {k: t for k, t in self.texts.items() if t.day >= day}


def _headline(articles: list[StoryInput], article_id: int) -> str:
    return next(a.title for a in articles if a.id == article_id)


def _clear_window(store: Store, settings: Settings, scope: StoriesScope
                  ) -> tuple[dict[int, frozenset[int]], date | None, date | None]:
    """Remove the stories with a day in the scope's window; returns each of their articles'
    story (as the set of its articles) and the days the removed stories covered, widened
    to the window (their articles are grouped again, whatever their day)."""
    languages = [scope.language] if scope.language else settings.nlp.languages
    removed = [s for lang in languages for s in store.stories_between(lang, scope.since,
                                                                      scope.until)]
    before = {a: frozenset(s.article_ids) for s in removed for a in s.article_ids}
    store.delete_stories(s.id for s in removed if s.id is not None)
    days = [d for s in removed for d in (s.first_day, s.last_day) if d is not None]
    since = min([*days, scope.since]) if scope.since and days else scope.since
    until = max([*days, scope.until]) if scope.until and days else scope.until
    return before, since, until


def _partition(store: Store, before: dict[int, frozenset[int]]) -> dict[int, frozenset[int]]:
    """The story (as the set of its articles) of each of these articles now."""
    story_of = store.stories_of_articles(before)
    members: dict[int, set[int]] = defaultdict(set)
    for article, story in story_of.items():
        members[story].add(article)
    return {article: frozenset(members[story]) for article, story in story_of.items()}


STORIES = Stage(name="stories",
                summary="Group the articles of several outlets about one event into stories.",
                scope=StoriesScope, work=stories)
