"""Retries of 429 and 5xx responses and of timeouts, with exponential backoff."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.http import Request, Response


class BackoffRetryMiddleware(RetryMiddleware):
    """Scrapy's retry middleware, waiting before each retry.

    The n-th retry of a request waits RETRY_BACKOFF_BASE * 2**(n-1) seconds, or the
    server's Retry-After when it asks for longer, never more than RETRY_BACKOFF_MAX.
    """

    def __init__(self, settings: Any) -> None:
        super().__init__(settings)
        self.base = settings.getfloat("RETRY_BACKOFF_BASE")
        self.ceiling = settings.getfloat("RETRY_BACKOFF_MAX")

    def delay(self, retry: Request, retry_after: bytes | None = None) -> float:
        """Seconds to wait before sending `retry`."""
        attempt = int(retry.meta.get("retry_times", 1))
        wait = self.base * 2 ** (attempt - 1)
        if retry_after and retry_after.strip().isdigit():
            wait = max(wait, float(retry_after))
        return min(wait, self.ceiling)

    async def process_response(self, request: Request, response: Response,
                               spider: Any = None) -> Request | Response:
        """Retry (after a pause) what Scrapy's middleware would retry."""
        result = super().process_response(request, response)
        if isinstance(result, Request):
            await asyncio.sleep(self.delay(result, response.headers.get(b"Retry-After")))
        return result

    async def process_exception(self, request: Request, exception: Exception,
                                spider: Any = None) -> Request | Response | None:
        """Retry (after a pause) a request that failed to download."""
        result = super().process_exception(request, exception)
        if isinstance(result, Request):
            await asyncio.sleep(self.delay(result))
        return result
