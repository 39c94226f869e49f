"""The stories stage on SQLite and PostgreSQL: online (a new day never moves what is
grouped), idempotent, --redo says what moved, and bad input is counted."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date

import pytest

from parawire.config import Settings, load_settings
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.textnorm import content_hash
from tests.unit.test_story_grouping import KERRY, NORTH_KOREA, NUCLEAR_DEAL


@pytest.fixture
def settings_for(store, tmp_path) -> Iterator[Callable[..., Settings]]:
    """Settings over the test's store, with [stories] overrides; the stage's connections
    are closed at the end (PostgreSQL drops the test's database then)."""

    def make(**stories: object) -> Settings:
        return load_settings(data_dir=tmp_path, store={"url": store.url}, stories=stories)

    yield make
    store_of(make()).engine.dispose()


def _add(store, key: str, outlet: str, article: tuple[str, str], day: date | None,
         language: str = "en") -> int:
    stored = Article(url=f"http://{outlet}.test/{key}", source=outlet, language=language,
                     title=article[0], text=article[1], published=day,
                     content_hash=content_hash(key + article[1]))
    store.add_article(stored)
    assert stored.id is not None
    return stored.id


def _partition(store, ids):
    story_of = store.stories_of_articles(ids)
    return {a: frozenset(b for b in ids if story_of.get(b) == story_of.get(a)) for a in ids}


def test_a_new_day_joins_or_opens_stories_and_never_moves_the_past(store, settings_for):
    settings = settings_for()
    first = [_add(store, "n0", "outlet-a", NUCLEAR_DEAL[0], date(2020, 1, 6)),
             _add(store, "p0", "outlet-a", NORTH_KOREA[0], date(2020, 1, 6)),
             _add(store, "n1", "outlet-b", NUCLEAR_DEAL[1], date(2020, 1, 7))]
    counts = run_stage(settings, "stories")
    assert counts == {"articles_grouped": 3, "stories_opened": 2, "joined_stories": 1}
    before = store.stories_of_articles(first)
    assert before[first[0]] == before[first[2]] != before[first[1]]
    again = run_stage(settings, "stories")
    assert again["articles_grouped"] == 0 and again["note"].startswith("nothing to group")

    later = [_add(store, "k0", "outlet-a", KERRY[0], date(2020, 1, 8)),
             _add(store, "n2", "outlet-c", NUCLEAR_DEAL[2], date(2020, 1, 8)),
             _add(store, "p1", "outlet-b", NORTH_KOREA[1], date(2020, 1, 8)),
             _add(store, "k1", "outlet-b", KERRY[1], date(2020, 1, 8))]
    assert run_stage(settings, "stories") == {"articles_grouped": 4, "stories_opened": 1,
                                              "joined_stories": 2}
    after = store.stories_of_articles(first + later)
    assert {a: after[a] for a in first} == before
    assert [after[a] for a in later[1:3]] == [before[first[0]], before[first[1]]]
    assert after[later[0]] == after[later[3]] not in before.values()
    story = store.story(after[later[1]])
    assert story.outlets == ["outlet-a", "outlet-b", "outlet-c"]
    assert (story.first_day, story.last_day) == (date(2020, 1, 6), date(2020, 1, 8))
    assert store.story_counts() == {"stories": 3, "multi_outlet_stories": 3,
                                    "single_article_stories": 0, "articles_in_no_story": 0}


def test_a_story_is_open_only_within_the_window(store, settings_for):
    settings = settings_for(window_days=2)
    early = _add(store, "n0", "outlet-a", NUCLEAR_DEAL[0], date(2020, 1, 1))
    late = _add(store, "n1", "outlet-b", NUCLEAR_DEAL[1], date(2020, 1, 4))
    run_stage(settings, "stories")
    stories = store.stories_of_articles([early, late])
    assert stories[early] != stories[late]


def test_redo_regroups_a_window_and_says_what_moved(store, settings_for):
    ids = [_add(store, f"n{k}", f"outlet-{k}", article, date(2020, 1, 6))
           for k, article in enumerate(NUCLEAR_DEAL)]
    run_stage(settings_for(), "stories")
    same = run_stage(settings_for(), "stories", redo=True,
                     since=date(2020, 1, 6), until=date(2020, 1, 6))
    assert same["articles_moved"] == 0 and same["articles_grouped"] == 3
    assert len(set(store.stories_of_articles(ids).values())) == 1
    stricter = settings_for(threshold=0.99)
    moved = run_stage(stricter, "stories", redo=True, since=date(2020, 1, 6),
                      until=date(2020, 1, 6))
    assert moved["articles_moved"] == 3 and moved["stories_opened"] == 3
    assert _partition(store, ids) == {a: frozenset([a]) for a in ids}
    assert store.story_counts()["stories"] == 3


@pytest.mark.parametrize("undated", ["skip", "crawl_day"])
def test_undated_articles_and_languages_without_a_pipeline_are_counted(store, settings_for,
                                                                         undated):
    settings = settings_for(undated=undated)
    dated = _add(store, "n0", "outlet-a", NUCLEAR_DEAL[0], date(2020, 1, 6))
    no_day = _add(store, "n1", "outlet-b", NUCLEAR_DEAL[1], None)
    _add(store, "x0", "outlet-c", NUCLEAR_DEAL[2], date(2020, 1, 6), language="xx")
    counts = run_stage(settings, "stories")
    assert counts["no_pipeline"] == 1
    in_story = store.stories_of_articles([dated, no_day])
    if undated == "skip":
        assert counts["undated_skipped"] == 1 and no_day not in in_story
    else:
        assert "undated_skipped" not in counts and no_day in in_story
    assert store.story_counts()["articles_in_no_story"] == 1 + (undated == "skip")


def test_an_empty_window_is_a_note(store, settings_for):
    counts = run_stage(settings_for(), "stories", since=date(2020, 1, 1),
                       until=date(2020, 1, 2))
    assert counts == {"articles_grouped": 0,
                      "note": "nothing to group: no dated article of a language with a "
                              "pipeline is outside a story in this window"}
