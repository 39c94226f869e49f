"""Requests refused before any route runs (a foreign Host, control bytes), a store that
cannot be read answered 503, and 405s that name every method the path allows."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import unquote

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.routing import Match

Handler = Callable[[Request], Awaitable[Response]]
# C0 controls (NUL included), DEL and the C1 controls: never part of a name, date or search.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def host_name(header: str) -> str:
    """The host of a Host header without its port ("[::1]:8000" → "::1"), lowercased."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def host_guard(allowed: Iterable[str]) -> Callable[[Request, Handler], Awaitable[Response]]:
    """Middleware refusing (400) a request whose Host is not one of `allowed` ("*": any)."""
    names = {name.strip().lower().strip("[]") for name in allowed}

    async def guard(request: Request, call_next: Handler) -> Response:
        host = host_name(request.headers.get("host", ""))
        if "*" not in names and host not in names:
            return JSONResponse({"detail": f"host {host!r} is not served here: add it to "
                                           f"dashboard.allowed_hosts"}, status_code=400)
        return await call_next(request)

    return guard


def _control_problems(request: Request) -> list[dict[str, object]]:
    path = unquote(request.url.path)
    problems: list[dict[str, object]] = []
    if CONTROL.search(path):
        problems.append({"loc": ["path"], "msg": "control character in the path",
                         "type": "control_character"})
    for name, value in request.query_params.multi_items():
        if CONTROL.search(name) or CONTROL.search(value):
            problems.append({"loc": ["query", name], "msg": "control character in the value",
                             "type": "control_character"})
    return problems


async def control_guard(request: Request, call_next: Handler) -> Response:
    """Middleware refusing (422, as a validation error) NUL and other control characters
    in the path or any query parameter."""
    problems = _control_problems(request)
    if problems:
        return JSONResponse({"detail": problems}, status_code=422)
    return await call_next(request)


async def store_unavailable(request: Request, exc: Exception) -> Response:
    """A store that cannot be read (damaged, unreachable): 503 with a one-line reason."""
    assert isinstance(exc, DBAPIError)
    reason = (str(exc.orig).strip().splitlines() or [type(exc.orig).__name__])[0]
    return JSONResponse({"detail": f"the store cannot be read: {reason}"}, status_code=503,
                        headers={"Retry-After": "30"})


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app answers on this path (for a 405's Allow)."""
    return [method for method in METHODS
            if any(route.matches({**request.scope, "method": method})[0] == Match.FULL
                   for route in request.app.router.routes)]
