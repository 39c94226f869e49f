"""Requests refused before any route runs (a foreign Host, control bytes), a store that
cannot be read answered 503, and 405s that name every method the path allows.

The guards are plain ASGI middleware (no BaseHTTPMiddleware, which runs each request
through a task group and a memory stream: a cost every request paid)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.datastructures import Headers, QueryParams
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

# C0 controls (NUL included), DEL and the C1 controls: never part of a name, date or search.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def host_name(header: str) -> str:
    """The host of a Host header without its port ("[::1]:8000" → "::1"), lowercased."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostGuard:
    """Middleware refusing (400) a request whose Host is not one of `allowed` ("*": any)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.names = {name.strip().lower().strip("[]") for name in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = host_name(Headers(scope=scope).get("host", ""))
            if "*" not in self.names and host not in self.names:
                refused = JSONResponse({"detail": f"host {host!r} is not served here: add it "
                                                  f"to dashboard.allowed_hosts"}, status_code=400)
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _control_problems(scope: Scope) -> list[dict[str, object]]:
    path = unquote(scope["path"])
    problems: list[dict[str, object]] = []
    if CONTROL.search(path):
        problems.append({"loc": ["path"], "msg": "control character in the path",
                         "type": "control_character"})
    for name, value in QueryParams(scope["query_string"]).multi_items():
        if CONTROL.search(name) or CONTROL.search(value):
            problems.append({"loc": ["query", name], "msg": "control character in the value",
                             "type": "control_character"})
    return problems


class ControlGuard:
    """Middleware refusing (422, as a validation error) NUL and other control characters
    in the path or any query parameter."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        problems = _control_problems(scope) if scope["type"] == "http" else []
        if problems:
            await JSONResponse({"detail": problems}, status_code=422)(scope, receive, send)
            return
        await self.app(scope, receive, send)


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
