"""Per-outlet learning on real pages of one outlet (two saved MoreBikes pages): the lines
its pages repeat are dropped from the next page, its title suffix is learned as its site
name, and the statistics survive in the store for the next crawl."""

from __future__ import annotations

from datetime import date

import pytest

from parawire.crawler.body import line_key
from parawire.crawler.extraction import extract
from parawire.crawler.outlets import OutletLearning, hints, outlet_key, title_affixes
from parawire.crawler.quality import load_saved_pages, overlap
from parawire.store import open_store

TODAY = date(2026, 1, 1)


@pytest.fixture(scope="module")
def morebikes(shared_data):
    pages = [page for page in load_saved_pages(shared_data / "extraction")
             if page.domain == "morebikes.co.uk"]
    assert len(pages) == 2
    return pages


def test_title_affixes_are_leading_and_trailing_parts():
    assert title_affixes("Story | World | News | Express.co.uk") == {
        "Story | ", "Story | World | ", "Story | World | News | ",
        " | Express.co.uk", " | News | Express.co.uk", " | World | News | Express.co.uk"}
    assert title_affixes("Story – DW – 13.06.2023") == {"Story – ", " – DW"}
    assert title_affixes("Just a story") == set()


def test_an_outlets_repeated_lines_and_title_suffix_are_learned(morebikes, tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    learning = OutletLearning(store)
    first, second = morebikes
    site = outlet_key(first.url)
    assert site == "morebikes.co.uk"
    found = extract(first.html.decode("utf-8"), first.url, TODAY, hints=learning.hints(site))
    assert found is not None
    learning.learn(site, found)
    # The second page without and with what the first taught.
    plain = extract(second.html.decode("utf-8"), second.url, TODAY)
    taught = extract(second.html.decode("utf-8"), second.url, TODAY, hints=learning.hints(site))
    assert plain is not None and taught is not None
    assert taught.text == plain.text  # nothing confirmed yet: lines seen on one page only
    taught = learning.clean(site, taught)
    dropped = set(plain.text.splitlines()) - set(taught.text.splitlines())
    assert {"Tell us what YOU think...", "comments"} <= dropped
    # A sentence-like line needs more pages than two before it counts as boilerplate.
    assert any(line.startswith("Get Motor Cycle Monthly delivered")
               for line in taught.text.splitlines())
    assert overlap(taught.text, second.expected).f1 > overlap(plain.text, second.expected).f1
    assert overlap(taught.text, second.expected).recall == overlap(plain.text,
                                                                   second.expected).recall
    learning.learn(site, taught)
    assert " | MoreBikes" in learning.hints(site).affixes
    # Saved at the end of a crawl: the next crawl starts from the stored statistics, which
    # hold the repeated lines only.
    learning.save()
    stored = open_store(store.url).outlet_stats(site)
    assert stored.pages == 2
    assert stored.lines[line_key("Tell us what YOU think...")] == 2
    assert set(stored.lines.values()) == {2}
    assert hints(stored) == learning.hints(site)
    assert line_key("Tell us what YOU think...") in hints(stored).boilerplate


def test_a_copy_of_a_seen_page_keeps_its_prose(morebikes):
    learning = OutletLearning(None)
    page = morebikes[0]
    found = extract(page.html.decode("utf-8"), page.url, TODAY)
    assert found is not None
    learning.learn("morebikes.co.uk", found)
    again = extract(page.html.decode("utf-8"), page.url, TODAY,
                    hints=learning.hints("morebikes.co.uk"))
    assert again is not None
    again = learning.clean("morebikes.co.uk", again)
    prose = [line for line in found.text.splitlines() if line_key(line).startswith("s")]
    assert len(prose) >= 5 and prose == [line for line in again.text.splitlines()
                                         if line_key(line).startswith("s")]
