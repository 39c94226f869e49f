"""The crawl's extraction pool: workers forked warm (the language model and the extractors'
lazily loaded parts already in memory) that extract exactly what this process extracts."""

from __future__ import annotations

from datetime import date

import py3langid.langid

from parawire.crawler.extraction import extract
from parawire.crawler.pool import extraction_pool

TODAY = date(2026, 3, 9)
BODY = "".join(f"<p>Paragraph {i} says the harbour council approved the new budget.</p>"
               for i in range(6))
PAGE = ("<html><head><title>Budget passes | Gazette</title>"
        '<meta property="article:published_time" content="2026-03-02T08:00:00">'
        f"</head><body><nav>Home Sport</nav><article><h1>Budget passes</h1>{BODY}</article>"
        "</body></html>")


def _model_in_memory() -> bool:
    """In a worker: whether py3langid's identifier was there before any language check."""
    return py3langid.langid.IDENTIFIER is not None


def test_workers_start_warm_and_extract_as_this_process_does(monkeypatch):
    monkeypatch.setattr(py3langid.langid, "IDENTIFIER", None)  # as in a fresh crawl process
    pool = extraction_pool(1)
    try:
        assert pool.submit(_model_in_memory).result(timeout=60)
        found = pool.submit(extract, PAGE, "http://n.test/a.html", TODAY).result(timeout=60)
    finally:
        pool.shutdown()
    assert found == extract(PAGE, "http://n.test/a.html", TODAY)
    assert found is not None and found.title == "Budget passes"
    assert found.published == date(2026, 3, 2)
    assert found.language == ""  # told by the crawl process, not by the worker
