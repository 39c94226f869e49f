"""The headline and date scoring of the extraction bench: misses by kind, and the check that
stored text keeps the page's characters."""

from __future__ import annotations

from datetime import date

from trafilatura.utils import load_html

from parawire.crawler.title_quality import (
    KICKER,
    OTHER_HEADLINE,
    SUFFIX,
    TRUNCATION,
    TYPOGRAPHY,
    TitleTruth,
    changed_lines,
    date_miss,
    headline_miss,
    page_characters,
)

TRUTH = TitleTruth("Nairobi von unten: \u201eWir bleiben\u201c", (), date(2019, 11, 19),
                   (date(2019, 11, 20),))


def test_headline_misses_are_told_apart_by_kind():
    assert headline_miss(TRUTH.headline, TRUTH) is None
    assert headline_miss('Nairobi von unten: "Wir bleiben"', TRUTH) == TYPOGRAPHY
    assert headline_miss(TRUTH.headline + " | Der Spiegel", TRUTH) == SUFFIX
    assert headline_miss("Kenia: " + TRUTH.headline, TRUTH) == KICKER
    assert headline_miss("Nairobi von unten", TRUTH) == TRUNCATION
    assert headline_miss("Die Stadt der Zukunft", TRUTH) == OTHER_HEADLINE


def test_date_misses_are_told_apart():
    assert date_miss(date(2019, 11, 19), TRUTH) is None
    assert date_miss(date(2019, 11, 20), TRUTH) == "date_off_by_a_day"
    assert date_miss(date(2019, 10, 13), TRUTH) == "date_other"
    assert date_miss(None, TRUTH) == "no_date"


def test_stored_text_is_checked_against_the_pages_characters():
    html = ("<html><head><meta property='og:title' content='It&#8217;s here'></head><body>"
            "<h1>Nairobi von unten: \u201eWir <em>bleiben</em>\u201c</h1>"
            "<p>The council\u2019s   members\n agreed &mdash; at last.</p></body></html>")
    characters = page_characters(load_html(html))
    assert changed_lines(TRUTH.headline, "The council\u2019s members agreed \u2014 at last.",
                         characters) == []
    assert changed_lines("It\u2019s here", "", characters) == []
    assert changed_lines('Nairobi von unten: "Wir bleiben"',
                         "The council's members agreed - at last.", characters) == [
        'Nairobi von unten: "Wir bleiben"', "The council's members agreed - at last."]
