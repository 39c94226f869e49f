"""Fixed pages served on a free 127.0.0.1 port: the crawler's tests and benchmarks."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import NamedTuple

from parawire.config import Settings


class Page(NamedTuple):
    """One answer of the server: status, headers, body, and seconds to wait first."""

    status: int
    headers: dict[str, str]
    body: bytes
    wait: float = 0.0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # Room for every connection a crawler opens at once (the default backlog is 5).
    request_queue_size = 256

    def handle_error(self, request: object, client_address: object) -> None:
        """Quiet about clients that drop their connection (keep-alive closed at the end)."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


NOT_FOUND = Page(404, {}, b"not found")


@contextmanager
def serve_pages(build: Callable[[str], dict[str, Page]],
                unknown: Page = NOT_FOUND) -> Iterator[str]:
    """Serve the pages `build` makes for the server's base URL; yields that base URL.

    Unknown paths get `unknown` (404). The server lives in a daemon thread until the block
    ends.
    """
    pages: dict[str, Page] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            page = pages.get(self.path, unknown)
            time.sleep(page.wait)
            with contextlib.suppress(OSError):  # the client gave up (timeout, size limit)
                self.send_response(page.status)
                for key, value in page.headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(page.body)))
                self.end_headers()
                self.wfile.write(page.body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the crawler logs what it fetched."""

    server = _Server(("127.0.0.1", 0), Handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    pages.update(build(base))
    Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


def loopback_settings(settings: Settings) -> Settings:
    """The settings with politeness off: no robots.txt, no AutoThrottle, many requests at once
    (for servers on 127.0.0.1 only)."""
    crawl = settings.crawl.model_copy(update={
        "obey_robots": False, "autothrottle": False, "concurrent_requests": 32,
        "concurrent_per_domain": 32, "retry_times": 0})
    return settings.model_copy(update={"crawl": crawl})
