"""The JSON API under /api (documented by the OpenAPI schema at /openapi.json)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, model_validator

from parawire.dashboard import health, review, runs
from parawire.dashboard.overview import Breakdown
from parawire.dashboard.pair_search import PairFilters, search_pairs
from parawire.dashboard.precision import Precision
from parawire.dashboard.review import MAX_SAMPLE
from parawire.dashboard.runs import OutletView, RunView, utc
from parawire.dashboard.security import require_token
from parawire.dashboard.state import DashboardState, state_of
from parawire.records import Article as StoredArticle
from parawire.records import Direction, PairListing, useful_reading
from parawire.store import Store

MAX_ID = 2**31 - 1
State = Annotated[DashboardState, Depends(state_of)]
RunId = Annotated[int, Path(ge=1, le=MAX_ID, description="Alignment run id.")]
RunLimit = Annotated[int, Query(ge=1, le=100, description="How many runs, newest first.")]

NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "no such article or run"}}


class ErrorOut(BaseModel):
    """A one-line reason."""

    detail: str


# Answers every route can give: a refused Host, a store that cannot be read.
COMMON: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "the Host is not in dashboard.allowed_hosts"},
    503: {"model": ErrorOut, "description": "the store cannot be read (damaged or unreachable)"},
}
router = APIRouter(prefix="/api", tags=["api"], responses=COMMON)
service_router = APIRouter(tags=["service"], responses={400: COMMON[400]})


class GradePrecisionOut(BaseModel):
    """The precision of the pairs the pair model gave one grade (None: no grade stored)."""

    grade: int | None
    right: int
    wrong: int
    estimate: float | None
    low: float | None
    high: float | None


class Overview(BaseModel):
    """Totals and breakdowns (dimension → metric → key → count) as counted at `as_of`;
    references and pairs are those of alignment run `run` (the latest; null: none yet),
    `runs` gives every run's references and pairs; `refreshing` while a recount runs."""

    totals: dict[str, int]
    run: int | None
    runs: dict[str, dict[str, int]]
    breakdowns: Breakdown
    as_of: datetime
    refreshing: bool
    review_by_grade: list[GradePrecisionOut] = Field(
        [], description="The latest run's review labels: precision per grade the pair "
                        "model gave the labelled pairs, with a 95% Wilson interval (read "
                        "afresh on each request).")


class IndexCounts(BaseModel):
    """Sentences the index holds, in all and by language, topic, outlet and day."""

    total: int
    by_language: dict[str, int]
    by_topic: dict[str, int]
    by_source: dict[str, int]
    by_day: dict[str, int]


class IndexStats(BaseModel):
    """The index next to the store (`stored_sentences` as of the overview's last count;
    `stats` is null and `error` says why when the index cannot be read)."""

    backend: str
    stored_sentences: int
    not_indexed: int | None
    stats: IndexCounts | None
    error: str | None


class PairPage(BaseModel):
    """One page of search results and the `before` value of the next page."""

    pairs: list[PairListing]
    next_before: int | None


class Article(BaseModel):
    """A stored article."""

    id: int
    url: str
    source: str
    language: str
    topic: str
    published: date | None
    title: str
    text: str
    author: str
    syndicated_of: int | None


class PrecisionOut(BaseModel):
    """A run's estimated precision with its 95% Wilson interval, overall and per grade."""

    right: int
    wrong: int
    labeled: int
    estimate: float | None
    low: float | None
    high: float | None
    per_grade: list[GradePrecisionOut] = []


def _json_integer(value: Any) -> Any:
    """A JSON integer (3 or 3.0, as JSON Schema counts them); never a string or a boolean."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class LabelIn(BaseModel):
    """An operator's verdict on one pair of the run, and who gave it (JSON types only: no
    "1" for 1 or 0 for false)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    pair_id: Annotated[int, BeforeValidator(_json_integer)] = Field(ge=1, le=MAX_ID)
    correct: bool | None = Field(None, description="Right or wrong for a corpus; with a grade, "
                                                    "it follows from grade and direction.")
    grade: Annotated[int | None, BeforeValidator(_json_integer)] = Field(
        None, ge=0, le=5, description="The reader's grade, 0-5 (pairs-dev's scheme).")
    direction: Direction | None = Field(  # a JSON string names the member
        None, strict=False, description="With a grade: a_covers_b (the input covers the target), "
                          "b_covers_a, equivalent (grades 4-5) or both_add (grades 0-2).")
    reviewer: str = Field("", max_length=100, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$",
                          description="The reviewer's name (no control characters).")

    @model_validator(mode="after")
    def _a_verdict(self) -> LabelIn:
        """A grade with the direction it implies, or a bare right/wrong; never both
        disagreeing."""
        if self.grade is None:
            if self.correct is None or self.direction is not None:
                raise ValueError("give correct, or a grade (with a direction for grade 3)")
            return self
        implied = (Direction.EQUIVALENT if self.grade >= 4
                   else Direction.BOTH_ADD if self.grade <= 2 else None)
        if implied is None and self.direction not in (Direction.A_COVERS_B,
                                                      Direction.B_COVERS_A):
            raise ValueError("grade 3 needs direction a_covers_b or b_covers_a")
        if implied is not None and self.direction not in (None, implied):
            raise ValueError(f"grade {self.grade} goes with direction {implied.value}")
        self.direction = self.direction or implied
        useful = useful_reading(self.grade, self.direction)
        if self.correct not in (None, useful):
            raise ValueError("correct disagrees with the grade and direction")
        self.correct = useful
        return self


class LabelOut(BaseModel):
    """A stored verdict."""

    pair_id: int
    correct: bool
    labeled_at: datetime
    reviewer: str
    grade: int | None = None
    direction: Direction | None = None


_LABELS = TypeAdapter(list[LabelOut])


def precision_out(store: Store, run_id: int) -> PrecisionOut:
    """A run's precision from its labels, overall and per grade, in the API's shape."""
    precision, per_grade = review.run_precision(store, run_id)
    return PrecisionOut(
        right=precision.right, wrong=precision.wrong, labeled=precision.labeled,
        estimate=precision.estimate, low=precision.low, high=precision.high,
        per_grade=grade_precision_out(per_grade))


def grade_precision_out(per_grade: list[tuple[int | None, Precision]]
                        ) -> list[GradePrecisionOut]:
    """Per-grade precision in the API's shape."""
    return [GradePrecisionOut(grade=grade, right=p.right, wrong=p.wrong, estimate=p.estimate,
                              low=p.low, high=p.high) for grade, p in per_grade]


def existing_run(state: DashboardState, run_id: int) -> int:
    """The run id, or a 404 when no such alignment run exists."""
    if state.store.alignment_run(run_id) is None:
        raise HTTPException(404, f"no alignment run {run_id}")
    return run_id


def overview_json(overview: dict[str, Any]) -> bytes:
    """The overview as the API answers it (validated by the Overview model)."""
    return Overview.model_validate({
        **overview, "review_by_grade": grade_precision_out(overview["review_by_grade"])
    }).model_dump_json().encode()


@router.get("/overview", response_model=Overview)
def get_overview(state: State) -> Response:
    """Articles, sentences, references and pairs per day, outlet, topic and language, and
    the latest run's review precision per grade."""
    return Response(state.overview.rendered(
        "api", overview_json, lambda overview: review.latest_run_review(state.store, overview)),
        media_type="application/json")


@router.get("/crawl-runs", response_model=list[RunView])
def get_crawl_runs(state: State, limit: RunLimit = 20) -> list[RunView]:
    """The latest crawl runs with their counts, error counts apart."""
    return runs.crawl_runs(state.store, limit)


@router.get("/outlets", response_model=list[OutletView])
def get_outlets(state: State) -> list[OutletView]:
    """Each outlet as its latest crawl left it: verdict, last success, failed days, last
    error (an outlet whose crawls failed on two days running has `failed_days` 2)."""
    return runs.outlets(state.store)


@router.get("/alignment-runs", response_model=list[RunView])
def get_alignment_runs(state: State, limit: RunLimit = 20) -> list[RunView]:
    """The latest alignment runs with their parameters and filter counts."""
    return runs.alignment_runs(state.store, limit)


@router.get("/index", response_model=IndexStats)
def get_index_stats(state: State) -> dict[str, Any]:
    """What the index holds by language, topic, outlet and day, next to the store."""
    return state.index.beside(state.overview.get()["totals"]["sentences"])


@router.get("/pairs", response_model=PairPage)
def get_pairs(state: State, filters: Annotated[PairFilters, Query()]) -> PairPage:
    """Search pairs by text, entity, outlet, day and score; newest first, paged by `before`."""
    found, next_before = search_pairs(state.store, filters)
    return PairPage(pairs=found, next_before=next_before)


@router.get("/articles/{article_id}", response_model=Article, responses=NOT_FOUND)
def get_article(state: State,
                article_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> StoredArticle:
    """One stored article."""
    found = state.store.article(article_id)
    if found is None:
        raise HTTPException(404, f"no article {article_id}")
    return found


@router.get("/runs/{run_id}/review/sample", response_model=list[PairListing],
            responses=NOT_FOUND)
def get_review_sample(state: State, run_id: RunId,
                      size: Annotated[int, Query(ge=1, le=MAX_SAMPLE)] = 10) -> list[PairListing]:
    """Random pairs of the run that carry no label yet."""
    return review.sample(state.store, existing_run(state, run_id), size)


@router.get("/runs/{run_id}/precision", response_model=PrecisionOut, responses=NOT_FOUND)
def get_precision(state: State, run_id: RunId) -> PrecisionOut:
    """The run's precision estimated from its labels, with a 95% Wilson interval."""
    return precision_out(state.store, existing_run(state, run_id))


@router.get("/runs/{run_id}/labels", response_model=list[LabelOut],
            responses={200: {"content": {"text/csv": {}}}, **NOT_FOUND})
def get_labels(state: State, run_id: RunId,
               format: Literal["json", "csv"] = "json") -> Any:
    """Export the run's labels (JSON, or CSV with both sentences)."""
    labels = state.store.review_labels(existing_run(state, run_id))
    if format == "csv":
        views = state.store.pairs_by_id([label.pair_id for label in labels])
        return Response(review.labels_csv(labels, views), media_type="text/csv",
                        headers={"Content-Disposition":
                                 f'attachment; filename="run-{run_id}-labels.csv"'})
    # Checked and serialised by pydantic's core in one pass over plain dicts.
    return Response(_LABELS.dump_json(_LABELS.validate_python([
        {"pair_id": label.pair_id, "correct": label.correct, "labeled_at": utc(label.labeled_at),
         "reviewer": label.reviewer, "grade": label.grade, "direction": label.direction}
        for label in labels])), media_type="application/json")


@router.post("/runs/{run_id}/labels", response_model=PrecisionOut,
             dependencies=[Depends(require_token)],
             responses={401: {"description": "missing or wrong token"},
                        403: {"description": "writes are off"},
                        404: {"description": "no such run or pair"}})
def post_label(state: State, run_id: RunId, label: LabelIn) -> PrecisionOut:
    """Mark a pair of the run right or wrong (needs the bearer token); returns the precision."""
    # LabelIn's validator gives `correct` a value where the label carries a grade.
    if not state.store.label_pair(existing_run(state, run_id), label.pair_id, bool(label.correct),
                                  label.reviewer.strip(), label.grade, label.direction):
        raise HTTPException(404, f"run {run_id} has no pair {label.pair_id}")
    return precision_out(state.store, run_id)


class HealthCheck(BaseModel):
    """One part's state: `ok`, and why not in `error`."""

    ok: bool
    error: str | None = None
    sentences: int | None = None


class HealthOut(BaseModel):
    """Whether the store and the index answer."""

    status: Literal["ok", "unavailable"]
    checks: dict[str, HealthCheck]


@service_router.get("/health", response_model=HealthOut,
                    responses={503: {"model": HealthOut, "description": "a part is down"}})
def get_health(state: State) -> Any:
    """200 when the store and the index answer, else 503 with each part's reason."""
    ok, body = health.health(state.settings, state.store)
    return body if ok else JSONResponse(body, status_code=503)


@service_router.get("/metrics", response_class=Response,
                    responses={200: {"content": {"text/plain": {}}},
                               503: {"model": ErrorOut, "description": COMMON[503]["description"]}})
def get_metrics(state: State) -> Response:
    """Prometheus metrics: rows per table, crawl pages and errors by reason, run durations
    (read from the store at most every dashboard.overview_check_seconds)."""
    return Response(state.metrics.get(),
                    media_type="text/plain; version=0.0.4; charset=utf-8")
