"""Short, countable reasons for requests that failed."""

from __future__ import annotations

from scrapy.exceptions import DownloadCancelledError, DownloadTimeoutError, IgnoreRequest
from twisted.internet.error import TimeoutError as TwistedTimeoutError


def failure_reason(error: BaseException) -> str:
    """The reason a request failed, as a counter name (http_404, timeout, too_large...)."""
    response = getattr(error, "response", None)
    if response is not None:
        return f"http_{response.status}"
    message = str(error)
    if isinstance(error, DownloadCancelledError) and "max size" in message:
        return "too_large"
    if isinstance(error, DownloadTimeoutError | TwistedTimeoutError | TimeoutError):
        return "timeout"
    if isinstance(error, IgnoreRequest):
        if "redirections" in message:
            return "redirect_loop"
        if "robots.txt" in message:
            return "robots_txt"
        if "offsite" in message.lower():
            return "offsite"
    return type(error).__name__
