"""The write token check and the headers that keep crawled text from running in a browser."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

# Scripts only from this server (no inline script, so injected markup cannot run any).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_bearer = HTTPBearer(auto_error=False, description="serve.token, as `Authorization: Bearer …`")


def require_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Refuse a write unless it carries the configured token."""
    expected: str = request.app.state.dashboard.token
    if not expected:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "writes are off: serve.token is not set")
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "a valid bearer token is required",
                            headers={"WWW-Authenticate": "Bearer"})


async def security_headers(request: Request,
                           call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """Add CSP and related headers to every response."""
    response = await call_next(request)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    return response
