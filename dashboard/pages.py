"""Server-rendered pages (Jinja2 with autoescaping: crawled text is always escaped)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

import jinja2
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import ValidationError

from parawire.dashboard import review, runs, stories
from parawire.dashboard.api import MAX_ID, existing_run
from parawire.dashboard.overview import DIMENSIONS, METRICS
from parawire.dashboard.pair_search import PairFilters, search_pairs
from parawire.dashboard.state import DashboardState, state_of
from parawire.dashboard.textdiff import highlighted
from parawire.records import Direction

HERE = Path(__file__).parent
PLOTLY_JS = Path(str(files("plotly") / "package_data" / "plotly.min.js"))
REVIEW_SAMPLE = 10
RUNS_SHOWN = 50

templates = Jinja2Templates(env=jinja2.Environment(
    loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
    undefined=jinja2.StrictUndefined,
))
templates.env.filters["safe_link"] = runs.safe_link
templates.env.globals["highlighted"] = highlighted
# How a stored direction (the input as side a) reads in pages, in the form's order.
templates.env.globals["directions"] = [
    (Direction.EQUIVALENT.value, "equivalent"), (Direction.A_COVERS_B.value, "input covers target"),
    (Direction.B_COVERS_A.value, "target covers input"), (Direction.BOTH_ADD.value, "both add")]
State = Annotated[DashboardState, Depends(state_of)]
_RENDERED: dict[str, tuple[str, bytes]] = {}  # page -> (content, page), the last rendered
router = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def _memoised(page: str, content: str, render: Callable[[], str]) -> bytes:
    """`render()` of a page, rendered again only when its `content` (the repr of what it
    shows) changed since the last time: fifty runs' counts take longer to render than to
    read."""
    kept = _RENDERED.get(page)
    if kept is not None and kept[0] == content:
        return kept[1]
    body = render().encode()
    _RENDERED[page] = (content, body)
    return body


def _id(value: int, what: str) -> int:
    if not 1 <= value <= MAX_ID:
        raise HTTPException(404, f"no {what} {value}")
    return value


@router.get("/static/plotly.min.js")
def plotly_js() -> FileResponse:
    """Plotly's JavaScript as shipped in the plotly wheel (no CDN)."""
    return FileResponse(PLOTLY_JS, media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/", response_class=HTMLResponse)
def overview_page(state: State) -> HTMLResponse:
    """Volume charts per day, outlet, topic and language (rendered once per count), and
    the latest run's review precision per grade."""
    def render(overview: dict[str, Any]) -> bytes:
        return templates.get_template("overview.html").render(
            data=overview, dimensions=DIMENSIONS, metrics=METRICS).encode()

    return HTMLResponse(state.overview.rendered(
        "page", render, lambda overview: review.latest_run_review(state.store, overview)))


@router.get("/crawl", response_class=HTMLResponse)
def crawl_page(state: State) -> HTMLResponse:
    """Each outlet's health, crawl runs with counts and errors by type, and the index
    statistics."""
    shown = runs.crawl_runs(state.store, RUNS_SHOWN)
    outlets = runs.outlets(state.store)
    index = state.index.beside(state.overview.get()["totals"]["sentences"])
    return HTMLResponse(_memoised("crawl", repr((shown, outlets, index)), lambda: templates.get_template(
        "crawl.html").render(runs=shown, outlets=outlets, index=index)))


@router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request, state: State) -> HTMLResponse:
    """Alignment runs with their parameters and filter counts."""
    return _page(request, "runs.html", runs=runs.alignment_runs(state.store, RUNS_SHOWN))


@router.get("/pairs", response_class=HTMLResponse)
def pairs_page(request: Request, state: State) -> HTMLResponse:
    """The pair browser; empty form fields count as absent."""
    given = {k: v for k, v in request.query_params.items() if v.strip()}
    try:
        filters = PairFilters.model_validate(given)
    except ValidationError as exc:
        raise RequestValidationError(exc.errors(include_url=False, include_context=False)) from None
    found, next_before = search_pairs(state.store, filters)
    next_query = None
    if next_before is not None:
        next_query = {**given, "before": str(next_before)}
    return _page(request, "pairs.html", filters=filters, pairs=found, next_query=next_query)


@router.get("/stories", response_class=HTMLResponse)
def stories_page(request: Request, state: State, day: date | None = None) -> HTMLResponse:
    """Stories per day, and the stories that opened on one day (the latest by default)."""
    days = state.story_days.get()[:stories.DAYS_SHOWN]
    shown = day or (days[0].day if days else None)
    opened = state.store.stories_opened_on(shown) if shown else []
    return _page(request, "stories.html", days=days, day=shown, stories=opened)


@router.get("/stories/{story_id}", response_class=HTMLResponse)
def story_page(request: Request, state: State, story_id: int) -> HTMLResponse:
    """A story's articles by outlet, side by side, and the pairs found between them."""
    return _page(request, "story.html", detail=stories.story_detail(state.store, story_id))


@router.get("/articles/{article_id}", response_class=HTMLResponse)
def article_page(request: Request, state: State, article_id: int) -> HTMLResponse:
    """One stored article, escaped."""
    found = state.store.article(_id(article_id, "article"))
    if found is None:
        raise HTTPException(404, f"no article {article_id}")
    return _page(request, "article.html", article=found)


@router.get("/review", response_model=None)
def review_latest(request: Request, state: State) -> Response:
    """The review page of the latest alignment run."""
    latest = state.store.alignment_runs(limit=1)
    if not latest:
        return _page(request, "message.html", title="Review",
                     message="No alignment run yet: run `parawire align` first.")
    return RedirectResponse(f"/review/{latest[0].id}", status_code=303)


@router.get("/review/{run_id}", response_class=HTMLResponse)
def review_page(request: Request, state: State, run_id: int) -> HTMLResponse:
    """Random unlabeled pairs of a run to mark right or wrong, and the run's precision."""
    run_id = existing_run(state, _id(run_id, "alignment run"))
    precision, per_grade = review.run_precision(state.store, run_id)
    return _page(request, "review.html", run_id=run_id, precision=precision,
                 per_grade=per_grade, pairs=review.sample(state.store, run_id, REVIEW_SAMPLE))
