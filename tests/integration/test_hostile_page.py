"""A hostile page crawled from 127.0.0.1 and annotated: one stray byte in a UTF-8 page is
replaced where it stands (the rest of the page keeps its characters, its dashes and curly
quotes too), and a 1.2-million-character
paragraph is cut for the parser instead of stopping annotation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from parawire.config import load_settings
from parawire.crawler import CRAWL
from parawire.crawler.loopback import Page, serve_pages
from parawire.nlp import annotate_pending
from parawire.store import store_of

TODAY = datetime.now(UTC).date()
NAMES = "Mayor Zoë Ångström of Malmö said — with “quotes”"
SENTENCE = ("The Malmö team beat the Rovers in the cup match at the stadium, and the coach "
            "praised the players on Tuesday. ")
LONG = SENTENCE * (1_200_000 // len(SENTENCE) + 1)


def page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"<meta name='author' content='Zoë Ångström'>"
            f"<meta property='article:published_time' content='{TODAY.isoformat()}T08:00:00'>"
            f"</head><body><article><h1>{title}</h1>{body}</article></body></html>")


def site(base: str) -> dict[str, Page]:
    html = {"Content-Type": "text/html; charset=utf-8"}
    paragraphs = "".join(f"<p>{NAMES} that the ferry to pier {i} runs again on Monday.</p>"
                         for i in range(8))
    stray = page("Stray byte", paragraphs).encode().replace(b"pier 3", b"pier \xff3")
    pages = {
        "/stray.html": Page(200, html, stray, 0),
        "/long.html": Page(200, html, page("Long paragraph", f"<p>{LONG}</p>").encode(), 0),
    }
    items = "".join(f"<item><link>{base}{p}</link></item>" for p in pages)
    pages["/feed.xml"] = Page(200, {"Content-Type": "application/rss+xml"},
                              f"<rss version='2.0'><channel>{items}</channel></rss>".encode(), 0)
    return pages


@pytest.mark.timeout(300)
def test_a_hostile_page_is_stored_and_annotated_correctly(tmp_path):
    settings = load_settings(data_dir=tmp_path)
    settings.crawl = settings.crawl.model_copy(update={"obey_robots": False,
                                                       "autothrottle": False})
    with serve_pages(site) as base:
        sources = tmp_path / "sources.toml"
        sources.write_text(f'[[outlet]]\nname = "gazette"\nlanguage = "en"\n'
                           f'domains = ["127.0.0.1"]\nfeeds = ["{base}/feed.xml"]\n')
        crawled = CRAWL(settings, {"since": TODAY, "until": TODAY, "sources": str(sources)})
    store = store_of(settings)
    stored = {a.title: a for batch in store.articles_to_annotate() for a in batch}
    assert crawled["stored"] == 2, crawled
    stray = stored["Stray byte"]
    assert stray.text.count(NAMES) == 8 and stray.author == "Zoë Ångström"
    assert stray.text.count("\ufffd") == 1 and "pier \ufffd3" in stray.text
    assert len(stored["Long paragraph"].text) >= 1_200_000

    counts = annotate_pending(settings, store)
    assert counts["articles"] == 2 and counts["passages_cut"] == 1
    assert store.count_articles_to_annotate() == 0
    long_id = stored["Long paragraph"].id
    sentences = [s for batch in store.iter_sentences() for s in batch if s.article_id == long_id]
    assert len(sentences) >= 0.9 * LONG.count("Tuesday.")
