"""Serves the demo site on 127.0.0.1 from a background thread."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import ClassVar

from parawire.demo.site import build_site


class _Handler(BaseHTTPRequestHandler):
    pages: ClassVar[dict[str, tuple[str, bytes]]] = {}

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        found = self.pages.get(path)
        if found is None:
            self.send_error(404)
            return
        content_type, body = found
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the crawler reports what it fetched."""


@contextmanager
def serve_demo(host: str = "127.0.0.1", port: int = 0,
               build: Callable[[str], dict[str, tuple[str, bytes]]] = build_site) -> Iterator[str]:
    """Serve the demo site (or the pages `build` makes for the base URL); yields its base URL
    (a free port unless one is given)."""
    server = ThreadingHTTPServer((host, port), _Handler)
    base = f"http://{host}:{server.server_address[1]}"
    handler = type("DemoHandler", (_Handler,), {"pages": build(base)})
    server.RequestHandlerClass = handler
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()
