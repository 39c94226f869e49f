"""Stories for operators: the days stories opened on, a day's stories, and one story's
articles by outlet beside the pairs found between them (API under /api/stories)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Response
from pydantic import BaseModel, TypeAdapter

from parawire.dashboard.api import COMMON, MAX_ID, NOT_FOUND, State
from parawire.records import PairListing, PairQuery
from parawire.store import Store

router = APIRouter(prefix="/api", tags=["api"], responses=COMMON)
PAIRS_SHOWN = 200
# The days the stories pages can list: counted (every story read) at most every
# dashboard.overview_check_seconds for all requests, like /metrics.
MAX_STORY_DAYS = 366
DAYS_SHOWN = 60


class StoryDayOut(BaseModel):
    """The stories that opened on one day: how many, how many several outlets told, and
    their articles."""

    day: date
    stories: int
    multi_outlet: int
    articles: int


class StoryOut(BaseModel):
    """A story: its days, outlets, articles and a headline (its first article's title)."""

    id: int
    language: str
    first_day: date | None
    last_day: date | None
    headline: str
    outlets: list[str]
    article_ids: list[int]


_STORIES = TypeAdapter(list[StoryOut])


class StoryArticle(BaseModel):
    """One article of a story."""

    id: int
    url: str
    source: str
    title: str
    published: date | None


class StoryDetail(BaseModel):
    """A story, its articles grouped by outlet, and the pairs found inside it (at most 200,
    newest first)."""

    story: StoryOut
    articles_by_outlet: dict[str, list[StoryArticle]]
    pairs: list[PairListing]


def story_detail(store: Store, story_id: int) -> StoryDetail:
    """One story with its articles by outlet and its pairs; 404 when there is none."""
    story = store.story(story_id) if 1 <= story_id <= MAX_ID else None
    if story is None:
        raise HTTPException(404, f"no story {story_id}")
    refs = store.article_refs(story.article_ids)
    by_outlet: dict[str, list[StoryArticle]] = defaultdict(list)
    for article_id in story.article_ids:
        if article_id in refs:
            by_outlet[refs[article_id].source].append(StoryArticle(**refs[article_id]._asdict()))
    pairs, _ = store.search_pairs(PairQuery(story=story_id, limit=PAIRS_SHOWN))
    return StoryDetail(story=StoryOut.model_validate(story, from_attributes=True),
                       articles_by_outlet=dict(sorted(by_outlet.items())), pairs=pairs)


@router.get("/stories/days", response_model=list[StoryDayOut])
def get_story_days(state: State,
                   limit: Annotated[int, Query(ge=1, le=MAX_STORY_DAYS)] = DAYS_SHOWN
                   ) -> list[StoryDayOut]:
    """Per day stories opened on (newest first): stories, multi-outlet stories, articles
    (counted at most every dashboard.overview_check_seconds)."""
    return [StoryDayOut(**day._asdict()) for day in state.story_days.get()[:limit]]


@router.get("/stories", response_model=list[StoryOut])
def get_stories(state: State, day: Annotated[date, Query(description="YYYY-MM-DD")]
                ) -> Response:
    """The stories that opened on one day."""
    # Read off the stored records and serialised in one pass (FastAPI would check the
    # models it was handed once more: 130 stories took 8 ms in Python instead of 4).
    return Response(_STORIES.dump_json(_STORIES.validate_python(
        state.store.stories_opened_on(day), from_attributes=True)),
        media_type="application/json")


@router.get("/stories/{story_id}", response_model=StoryDetail, responses=NOT_FOUND)
def get_story(state: State, story_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> StoryDetail:
    """One story: its articles by outlet and the pairs found between them."""
    return story_detail(state.store, story_id)
