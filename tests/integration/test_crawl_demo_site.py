"""The spider crawls the demo site on 127.0.0.1: every article, right text, right date."""

from __future__ import annotations

import pytest

from parawire.config import load_settings
from parawire.crawler import CRAWL
from parawire.demo import date_range, load_articles, serve_demo, sources_toml
from parawire.errors import ParawireError
from parawire.store import store_of

EXPECTED_TOPICS = {"harriers": "sports", "rowing": "sports", "museum": "culture",
                   "aground": "nature", "turtle": "nature", "branch": "economics",
                   "ferry-tern": "technology", "barracks": "society"}


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    data = tmp_path_factory.mktemp("crawl")
    settings = load_settings(data_dir=data)
    first, last = date_range()
    with serve_demo() as base:
        sources = data / "sources.toml"
        sources.write_text(sources_toml(base))
        window = {"since": first.date(), "until": last.date(), "sources": str(sources)}
        first_run = CRAWL(settings, window)
        second_run = CRAWL(settings, window)
    return settings, first_run, second_run


def test_every_demo_article_is_stored_once(crawled):
    settings, first_run, second_run = crawled
    expected = load_articles()
    assert first_run["stored"] == len(expected)
    assert second_run.get("stored", 0) == 0
    assert second_run["skipped/known_url"] >= len(expected)
    assert store_of(settings).counts()["articles"] == len(expected)


def test_extracted_text_date_and_outlet_match_the_source(crawled):
    settings, _, _ = crawled
    store = store_of(settings)
    stored = {a.url.split("/", 3)[3]: a for batch in store.articles_to_annotate() for a in batch}
    for article in load_articles():
        got = stored[article.path.lstrip("/")]
        assert got.title == article.title
        assert got.published == article.published.date()
        assert got.source == article.outlet
        assert got.text == "\n".join(article.paragraphs)
        for keyword, topic in EXPECTED_TOPICS.items():
            if keyword in article.slug:
                assert got.topic == topic, article.slug


def test_window_outside_the_demo_stores_nothing(tmp_path):
    settings = load_settings(data_dir=tmp_path)
    first, _ = date_range()
    with serve_demo() as base:
        sources = tmp_path / "sources.toml"
        sources.write_text(sources_toml(base))
        day = first.date().replace(year=2020)
        counts = CRAWL(settings, {"since": day, "until": day, "sources": str(sources)})
    assert counts.get("stored", 0) == 0
    assert counts["skipped/out_of_window"] >= len(load_articles())


def test_missing_sources_file_is_one_line(tmp_path):
    with pytest.raises(ParawireError, match="sources file not found"):
        since, until = (d.date() for d in date_range())
        CRAWL(load_settings(data_dir=tmp_path),
              {"since": since, "until": until, "sources": str(tmp_path / "absent.toml")})
