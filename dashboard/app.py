"""The FastAPI application: JSON API, pages, static files, guards and security headers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

from anyio import to_thread
from fastapi import FastAPI, Request
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from parawire.config import Settings
from parawire.dashboard import api, pages, stories
from parawire.dashboard.guards import (
    ControlGuard,
    HostGuard,
    allowed_methods,
    store_unavailable,
)
from parawire.dashboard.health import metrics_text
from parawire.dashboard.overview import OverviewCache
from parawire.dashboard.runs import IndexStatsCache
from parawire.dashboard.security import SecurityHeaders
from parawire.dashboard.state import DashboardState
from parawire.dashboard.throttle import Throttled
from parawire.store import Store, store_of

STATIC = Path(__file__).with_name("static")


def _wants_page(request: Request) -> bool:
    return not request.url.path.startswith(("/api/", "/openapi", "/static/", "/health",
                                            "/metrics"))


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    if _wants_page(request):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in exc.errors())
        return pages.templates.TemplateResponse(
            request, "message.html", {"title": "Bad request", "message": problems},
            status_code=422)
    return await request_validation_exception_handler(request, exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    allowed = allowed_methods(request) if exc.status_code == 405 else []
    if allowed:
        exc.headers = {**(exc.headers or {}), "Allow": ", ".join(allowed)}
    if _wants_page(request) and exc.status_code == 404:
        return pages.templates.TemplateResponse(
            request, "message.html", {"title": "Not found", "message": str(exc.detail)},
            status_code=404)
    return await http_exception_handler(request, exc)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Start the first overview count as the server starts (not in the first request),
    and let dashboard.request_threads threads answer requests at once. Every route's
    handling is built here too, with the OpenAPI schema: FastAPI builds an included
    router's routes when the first request comes (48 ms of that request)."""
    state: DashboardState = app.state.dashboard
    to_thread.current_default_thread_limiter().total_tokens = \
        state.settings.dashboard.request_threads
    app.openapi()
    with suppress(DBAPIError):  # a store that cannot be read: each request answers 503
        state.overview.warm()
    yield


def create_app(settings: Settings, token: str | None = None, store: Store | None = None) -> FastAPI:
    """The dashboard over the store and index the settings name; writes need `token`
    (default: serve.token; empty turns writes off) over `store` (default: the settings's,
    with dashboard.pool_size connections)."""
    # No Swagger UI or ReDoc: they load their JavaScript from a CDN, which the
    # Content-Security-Policy (and an offline machine) would refuse.
    app = FastAPI(title="parawire dashboard", version="1", docs_url=None, redoc_url=None,
                  lifespan=_lifespan,
                  description="Operator API of parawire: volumes, runs, pairs and review labels. "
                              "Reads are open; writes need the bearer token (serve.token).")
    store = store or store_of(settings, settings.dashboard.pool_size)
    app.state.dashboard = DashboardState(
        settings=settings, store=store,
        token=settings.serve.token if token is None else token,
        overview=OverviewCache(store, settings.dashboard.overview_check_seconds,
                               settings.dashboard.first_count_wait_seconds),
        index=IndexStatsCache(settings, settings.dashboard.overview_check_seconds),
        metrics=Throttled(lambda: metrics_text(store), settings.dashboard.overview_check_seconds),
        story_days=Throttled(lambda: store.story_days(stories.MAX_STORY_DAYS),
                             settings.dashboard.overview_check_seconds))
    # The last added middleware runs first: headers on every answer, then the Host check,
    # then control characters.
    app.add_middleware(ControlGuard)
    app.add_middleware(HostGuard, allowed=settings.dashboard.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(DBAPIError, store_unavailable)
    app.include_router(api.router)
    app.include_router(stories.router)
    app.include_router(api.service_router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
