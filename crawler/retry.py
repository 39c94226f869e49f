"""Retries of 429 and 5xx responses and of timeouts, with exponential backoff."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.http import Request, Response


def backoff(attempt: int, base: float, ceiling: float) -> float:
    """Seconds before the `attempt`-th retry of a request: base * 2**(attempt-1), at most
    `ceiling`."""
    return min(base * 2 ** (attempt - 1), ceiling)


def retry_wait(retry_times: int, base: float, ceiling: float) -> float:
    """Seconds one request that fails every try spends waiting between its tries (the
    middleware's delays without Retry-After). An outlet that cannot be reached costs a crawl
    this twice (its robots.txt, then its listings, fetched side by side), plus the tries'
    own time: none when the host is unknown or refuses, crawl.download_timeout each when
    its connections hang."""
    return sum(backoff(attempt, base, ceiling) for attempt in range(1, retry_times + 1))


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
        wait = backoff(attempt, self.base, self.ceiling)
        if retry_after and retry_after.strip().isdigit():
            wait = max(wait, min(float(retry_after), self.ceiling))
        return wait

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
