"""Bad input served on 127.0.0.1: each page is logged with its reason, the crawl goes on,
and only whole articles are stored."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from parawire.config import load_settings
from parawire.crawler import CRAWL
from parawire.crawler.loopback import Page, serve_pages
from parawire.store import store_of

TODAY = datetime.now(UTC).date()
TEAMS = ["Harriers", "Rovers", "Wanderers", "Athletic", "United", "Rangers", "Albion", "Town",
         "Swifts", "Comets", "Pilots", "Mariners"]
PLACES = ["Northgate", "Eastfield", "Kingsbridge", "Marlow", "Ashby", "Wexcombe", "Tilbury",
          "Dunmore", "Carrow", "Penwith", "Selby", "Ormskirk"]
VERBS = ["beat", "edged past", "overcame", "thrashed", "held off", "outplayed"]


def story(seed: str, sentences: int = 8) -> str:
    """A sports report of distinct sentences, different for every seed."""
    rng = random.Random(seed)
    lines = [f"The {rng.choice(TEAMS)} team {rng.choice(VERBS)} {rng.choice(TEAMS)} in the cup "
             f"match at {rng.choice(PLACES)} stadium, where {rng.randint(100, 9000)} fans saw "
             f"{rng.randint(2, 6)} goals and the coach praised player {rng.randint(2, 99)}."
             for _ in range(sentences)]
    return "".join(f"<p>{line}</p>" for line in lines)


def article(seed: str, body: str | None = None, lang: str = "en") -> str:
    """A well-formed article page dated today."""
    return (f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{seed}</title>"
            f"<meta property='article:published_time' content='{TODAY.isoformat()}T08:00:00'>"
            f"</head><body><nav>Home Sport</nav><article><h1>Report {seed}</h1>"
            f"{body or story(seed)}</article><footer>Contact us</footer></body></html>")


HTML = "text/html; charset=utf-8"
CAFE = "<p>Fans at the Café Müller near the stadium were naïve about the league season.</p>"
FRENCH = "".join("<p>L'équipe de la ville a gagné le match de coupe devant ses supporters, "
                 f"et l'entraîneur a félicité les joueurs pour leur saison numéro {i}.</p>"
                 for i in range(8))


def site(base: str) -> dict[str, Page]:
    """Every page of the bad-input site."""
    pages: dict[str, Page] = {
        "/robots.txt": Page(200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /private/\n", 0),
        "/good.html": Page(200, {"Content-Type": HTML}, article("good").encode(), 0),
        "/malformed.html": Page(200, {"Content-Type": HTML}, (
            "<html><head><title>malformed</title><body><div><article><h1>Report malformed</h1>"
            + story("malformed").replace("</p>", "") + "</div></div></span><p>tail").encode(), 0),
        "/latin1.html": Page(200, {"Content-Type": HTML},
                         article("latin1", story("latin1") + CAFE).encode("latin-1"), 0),
        "/no-charset.html": Page(200, {"Content-Type": "text/html"},
                             article("nocharset", story("nocharset") + CAFE)
                             .replace("<meta charset='utf-8'>", "").encode("cp1252"), 0),
        "/image.png": Page(200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n" + bytes(2000), 0),
        "/huge.html": Page(200, {"Content-Type": HTML}, article("huge", story("huge", 4000)).encode(), 0),
        "/loop-a": Page(302, {"Location": f"{base}/loop-b"}, b"", 0),
        "/loop-b": Page(302, {"Location": f"{base}/loop-a"}, b"", 0),
        "/gone.html": Page(404, {"Content-Type": HTML}, b"<html><body>not here</body></html>", 0),
        "/broken.html": Page(500, {"Content-Type": HTML}, b"<html><body>oops</body></html>", 0),
        # Connection: close, so a late answer can never reach a later request on a reused
        # keep-alive connection.
        "/slow.html": Page(200, {"Content-Type": HTML, "Connection": "close"},
                           article("slow").encode(), 3.0),
        "/teaser.html": Page(200, {"Content-Type": HTML},
                         article("teaser", "<p>Subscribe to read the match report.</p>").encode(), 0),
        "/french.html": Page(200, {"Content-Type": HTML}, article("french", FRENCH, "fr").encode(), 0),
        "/private/secret.html": Page(200, {"Content-Type": HTML}, article("secret").encode(), 0),
        "/bad-feed.xml": Page(200, {"Content-Type": "application/rss+xml"},
                          b"<rss><channel><item><link>http://x/</link></channel>", 0),
    }
    links = [p for p in pages if p.endswith(".html") or p.startswith("/loop-a") or p == "/image.png"]
    items = "".join(f"<item><link>{base}{p}</link><pubDate>{TODAY:%a, %d %b %Y} 08:00:00 +0000"
                    "</pubDate></item>" for p in links)
    items += "<item><link>http://elsewhere.test/story.html</link></item>"
    pages["/feed.xml"] = Page(200, {"Content-Type": "application/rss+xml"},
                          f"<?xml version='1.0'?><rss version='2.0'><channel>{items}</channel></rss>"
                          .encode(), 0)
    return pages


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    data = tmp_path_factory.mktemp("bad-input")
    settings = load_settings(data_dir=data)
    settings.crawl = settings.crawl.model_copy(update={
        "download_timeout": 1, "retry_times": 1, "retry_backoff": 0.1,
        "max_download_bytes": 100_000, "autothrottle": False})
    with serve_pages(site) as base:
        sources = data / "sources.toml"
        sources.write_text(f'[[outlet]]\nname = "gazette"\nlanguage = "en"\n'
                           f'domains = ["127.0.0.1"]\n'
                           f'feeds = ["{base}/feed.xml", "{base}/bad-feed.xml"]\n')
        counts = CRAWL(settings, {"since": TODAY, "until": TODAY, "sources": str(sources)})
    return settings, base, counts


def test_each_bad_page_is_counted_under_its_reason(crawled):
    _, _, counts = crawled
    expected = {
        "errors/bad_listing": 1, "skipped/not_html": 1, "errors/too_large": 1,
        "errors/redirect_loop": 1, "errors/http_404": 1, "errors/http_500": 1,
        "errors/timeout": 1, "skipped/too_short": 1, "skipped/wrong_language": 1,
        "errors/robots_txt": 1, "skipped/offsite": 1, "stored": 4, "repaired_encoding": 1,
    }
    assert {key: counts.get(key) for key in expected} == expected
    assert counts["retries"] >= 2  # the 500 and the timeout were retried once each


def test_each_bad_url_is_logged_with_its_reason(crawled):
    _, base, counts = crawled
    log = Path(counts["log"]).read_text(encoding="utf-8")
    for path, reason in [("/gone.html", "http_404"), ("/broken.html", "http_500"),
                         ("/slow.html", "timeout"), ("/huge.html", "too_large"),
                         ("/loop-", "redirect_loop"), ("/private/secret.html", "robots_txt"),
                         ("/image.png", "not_html"), ("/teaser.html", "too_short"),
                         ("/french.html", "wrong_language"), ("/bad-feed.xml", "invalid XML")]:
        line = next((ln for ln in log.splitlines() if f"{base}{path}" in ln and reason in ln), None)
        assert line is not None, (path, reason)


def test_only_whole_articles_are_stored_with_text_decoded(crawled):
    settings, base, _ = crawled
    stored = {a.url.removeprefix(base): a for batch in store_of(settings).articles_to_annotate()
              for a in batch}
    assert set(stored) == {"/good.html", "/malformed.html", "/latin1.html", "/no-charset.html"}
    for path, got in stored.items():
        assert got.published == TODAY and got.topic == "sports" and got.source == "gazette"
        assert got.text.count("\n") >= 7, path  # every paragraph of the story made it
        assert "\ufffd" not in got.text
    for path in ("/latin1.html", "/no-charset.html"):
        assert "Café Müller" in stored[path].text and "naïve" in stored[path].text
    assert stored["/malformed.html"].title == "Report malformed"
