"""Extraction rules on small pages: headline by agreement and without the site's name or a
kicker, fuzzy headline removal, the publisher's characters kept, suspicious bodies, the
article's own date first and the day its byline states."""

from __future__ import annotations

import json
from datetime import date

from trafilatura.utils import load_html

from parawire.crawler.body import line_key, suspicion, without_boilerplate, without_headline
from parawire.crawler.dates import date_from_url, stated_day
from parawire.crawler.extraction import extract
from parawire.crawler.headline import choose_headline, strip_site
from parawire.crawler.page_meta import PageMeta, read_page_meta
from parawire.crawler.typography import normalise, normalise_lines

TODAY = date(2026, 11, 23)
PARAGRAPHS = "".join(
    f"<p>Paragraph {i} of the council story says that the new budget was approved on Monday "
    f"after a long debate among the members about roads, schools and taxes.</p>"
    for i in range(8))


def page(head: str = "", body: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


def test_whitespace_is_normalised_and_the_publishers_characters_kept():
    assert normalise("Hello\u00a0world \u201cquoted\u201d it\u2019s\u200b done \u2013 \u00abja\u00bb\u2026") \
        == "Hello world \u201cquoted\u201d it\u2019s done \u2013 \u00abja\u00bb\u2026"
    assert normalise_lines("one\u00a0 two\n\n\u200b\nthree") == ["one two", "three"]


def test_site_name_and_dates_are_stripped_from_titles():
    assert strip_site("Big story | Börsen-Zeitung", ["Börsen-Zeitung"]) == "Big story"
    assert strip_site("Big story – DW – 13.06.2023", ["dw"]) == "Big story"
    assert strip_site("Big story - WELT", ["welt"]) == "Big story"
    assert strip_site("Big story：朝日新聞デジタル", ["朝日新聞デジタル"]) == "Big story"
    assert strip_site("Site News: Big story", [], affixes=["Site News: "]) == "Big story"
    # A part that is a story mentioning the site is kept.
    assert strip_site("Guide to PolitiFact ratings and their many uses | PolitiFact",
                      ["PolitiFact"]) == "Guide to PolitiFact ratings and their many uses"


def test_visible_headline_wins_when_it_agrees_with_another_candidate():
    meta = PageMeta(h1=["Council approves budget after long debate on roads"],
                    og_title="Budget approved: what it means for you | Town Herald",
                    ld_headline="Council approves budget after debate on roads",
                    title="Budget approved: what it means for you | Town Herald",
                    site_names=["Town Herald"])
    assert choose_headline(meta) == "Council approves budget after long debate on roads"


def test_logo_h1_loses_to_the_candidates_that_agree():
    meta = PageMeta(h1=["Town Herald"], og_title="Council approves budget",
                    title="Council approves budget - Town Herald", site_names=["Town Herald"])
    assert choose_headline(meta) == "Council approves budget"
    assert choose_headline(PageMeta(title="Only a title | Herald"), ["herald"]) == "Only a title"
    assert choose_headline(PageMeta(), fallback="from trafilatura") == "from trafilatura"


def test_headline_is_removed_from_the_body_by_fuzzy_match():
    lines = ["Council Approves Budget After Long Debate – Town Herald",
             "The council approved the budget on Monday.", "Council approves budget"]
    assert without_headline(lines, ["Council approves budget after long debate"]) == lines[1:]
    assert without_headline(["Council approved a budget today."], ["Council approves budget"]) \
        == ["Council approved a budget today."]


def test_outlet_boilerplate_lines_go_unless_they_are_most_of_the_text():
    lines = ["Sign up for our newsletter!", "The council approved the budget on Monday " * 3]
    assert without_boilerplate(lines, {line_key("SIGN UP for our newsletter")}) == lines[1:]
    assert without_boilerplate(lines, {line_key(lines[1])}) == lines


def test_suspicion_names_why_a_body_is_no_article():
    meta = PageMeta(link_texts={"Home", "World news today", "Sports and more sports"},
                    paragraph_chars=200)
    assert suspicion(["- Home", "- World news today", "- Sports and more sports"], meta,
                     frozenset()) == "link_dense"
    assert suspicion(["A headline", "Another short line"], PageMeta(), frozenset()) == "no_sentences"
    sentence = "The council approved the budget on Monday after a long debate."
    assert suspicion([sentence], PageMeta(paragraph_chars=10_000), frozenset()) == "too_short"
    assert suspicion([sentence], PageMeta(), {line_key(sentence)}) == "repeated"
    assert suspicion([sentence], PageMeta(), frozenset()) is None


def test_the_articles_own_date_wins_over_other_objects_dates():
    ld = [{"@context": "https://schema.org", "@type": "VideoObject", "name": "clip",
           "uploadDate": "2024-05-01", "datePublished": "2024-05-01"},
          {"@type": "NewsArticle", "headline": "Council approves budget",
           "datePublished": "2024-03-02T08:00:00+01:00",
           "video": {"@type": "VideoObject", "datePublished": "2024-04-01"}}]
    head = (f'<script type="application/ld+json">{json.dumps(ld)}</script>'
            '<meta name="date" content="2024-04-15">')
    html = page(head, f"<article><h1>Council approves budget</h1>{PARAGRAPHS}</article>")
    meta = read_page_meta(load_html(html))
    assert (meta.ld_published[:10], meta.ld_headline) == ("2024-03-02", "Council approves budget")
    found = extract(html, "https://example.org/news/budget", TODAY)
    assert found is not None and found.published == date(2024, 3, 2)
    assert found.title == "Council approves budget"
    assert not found.text.startswith("Council approves budget")
    # In the future: not taken; article:published_time is next.
    ld[1]["datePublished"] = "2027-01-01"
    head = (f'<script type="application/ld+json">{json.dumps(ld)}</script>'
            '<meta property="article:published_time" content="2024-03-03T10:00:00Z">')
    found = extract(page(head, f"<article>{PARAGRAPHS}</article>"),
                    "https://example.org/news/budget", TODAY)
    assert found is not None and found.published == date(2024, 3, 3)


# Fragments shaped like real article pages (a Hearst paper's timestamp, a CBS-style <time>,
# a news site's kicker span inside the <h1>, an AP "The Latest:" headline).
def article_page(head: str, headline: str, byline: str = "", strip: str = "",
                 paragraphs: str = PARAGRAPHS) -> str:
    return page(head, f'<header class="masthead"><div class="today">{strip}</div></header>'
                      f'<main><article><header><h1 class="headline">{headline}</h1>'
                      f'<div class="byline">{byline}</div></header>{paragraphs}</article></main>')


def test_the_publishers_quotes_dashes_and_guillemets_are_stored_as_they_are():
    title = "\u2018He died in my hands\u2019: Bolivia\u2019s police \u2013 and \u201cthe army\u201d"
    text = ("<p>\u201eWir bleiben\u201c, sagte sie \u2014 \u00abnous restons\u00bb \u2026 "
            "and the council\u2019s members agreed after a long debate about the budget.</p>")
    head = (f"<title>{title} \u2014 RT World News</title>"
            "<meta property=\"og:title\" content=\"'He died in my hands': Bolivia's police - "
            "and &quot;the army&quot;\">")
    found = extract(article_page(head, title, paragraphs=text + PARAGRAPHS),
                    "https://example.org/news/bolivia", TODAY)
    assert found is not None
    assert found.title == title  # the <h1>'s characters, not og:title's straight ones
    assert found.text.splitlines()[0] == (
        "\u201eWir bleiben\u201c, sagte sie \u2014 \u00abnous restons\u00bb \u2026 and the "
        "council\u2019s members agreed after a long debate about the budget.")


def test_a_kicker_set_apart_in_the_h1_is_dropped_and_one_written_into_it_is_kept():
    head = '<meta property="og:title" content="Kenia: Nairobi von unten">'
    found = extract(article_page(head, '<span class="headline-kicker">Kenia:</span> '
                                       '<span class="headline-title">Nairobi von unten</span>'),
                    "https://example.org/ausland/nairobi", TODAY)
    assert found is not None and found.title == "Nairobi von unten"
    latest = "The Latest: Man stabbed to death on San Francisco Bay train"
    found = extract(article_page(f'<meta property="og:title" content="{latest}">', latest),
                    "https://example.org/news/latest", TODAY)
    assert found is not None and found.title == latest


def test_a_site_suffix_is_removed_and_the_visible_headline_kept():
    head = ("<title>Council approves budget after long debate \u2013 Town Herald</title>"
            '<meta property="og:site_name" content="Town Herald">')
    found = extract(page(head, f"<article>{PARAGRAPHS}</article>"),
                    "https://townherald.example/news/budget", TODAY)
    assert found is not None and found.title == "Council approves budget after long debate"


def _stamped(published: str, modified: str = "") -> str:
    return ('<meta property="article:published_time" content="' + published + '">'
            + (f'<meta property="article:modified_time" content="{modified}">' if modified else ""))


def test_a_utc_timestamp_gives_the_day_the_byline_states():
    # 11:26 pm in New York is 04:26 UTC the next day.
    found = extract(article_page(_stamped("2019-11-20T04:26:47Z"), "Isles win in overtime",
                                 '<time datetime="2019-11-20T04:26:50Z">11:26 pm EST, Tuesday, '
                                 "November 19, 2019</time>"),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 19)


def test_a_utc_timestamp_gives_the_outlets_day_where_the_page_tells_its_time_zone():
    # No byline; the modified time is written in the outlet's zone.
    found = extract(article_page(_stamped("2019-11-20T04:26:47Z", "2019-11-19T23:30:00-05:00"),
                                 "Isles win in overtime"), "https://example.org/sports/isles",
                    TODAY)
    assert found is not None and found.published == date(2019, 11, 19)
    found = extract(article_page(_stamped("2019-11-20T04:26:47Z"), "Isles win in overtime"),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 20)


def test_a_modified_date_is_ignored():
    ld = {"@type": "NewsArticle", "headline": "Isles win in overtime",
          "datePublished": "2019-11-19T21:00:00-05:00", "dateModified": "2019-11-20T09:00:00-05:00"}
    head = f'<script type="application/ld+json">{json.dumps(ld)}</script>'
    found = extract(article_page(head, "Isles win in overtime",
                                 "Updated November 20, 2019 9:00 am"),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 19)
    # A byline with both: the day before the update's label counts.
    found = extract(article_page(_stamped("2019-11-19T01:48:03Z"), "Isles win in overtime",
                                 "By Staff | November 18, 2019 at 2:26 PM HST - Updated "
                                 "November 19 at 1:48 AM"),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 18)


def test_a_header_strips_date_of_today_is_ignored():
    strip = "Wednesday, November 20, 2019"
    found = extract(article_page(_stamped("2019-11-20T03:00:00Z"), "Isles win in overtime",
                                 "Nov. 19, 2019 at 10:00 pm ET", strip=strip),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 19)
    found = extract(article_page(_stamped("2019-11-19T15:00:00Z"), "Isles win in overtime",
                                 strip=strip), "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 19)


def test_url_dates_with_month_names():
    assert date_from_url("https://example.org/statements/2019/nov/18/someone/claim/") == \
        date(2019, 11, 18)
    assert date_from_url("https://example.org/2019/11/18/story") == date(2019, 11, 18)
    assert stated_day(date(2019, 11, 20), ["10:31 pm CST, Nov 19, 2019"]) == date(2019, 11, 19)
    # A line that writes two of the candidate days decides nothing.
    assert stated_day(date(2019, 11, 20), ["Nov 19, 2019 \u00b7 20 comments"]) is None
    # A line without its year is read when it names the month.
    assert stated_day(date(2019, 11, 19), ["Posted Nov 18, 8:19 PM"]) == date(2019, 11, 18)
    assert stated_day(date(2019, 11, 19), ["Posted 18, 8:19 PM"]) is None


def test_a_utc_timestamp_takes_the_urls_day_where_no_line_states_one():
    # 11:58 pm in New York is 04:58 UTC the next day; the outlet dated its URL in New York.
    url = "https://example.org/2019/11/18/attorney-general-investigating"
    found = extract(article_page(_stamped("2019-11-19T04:58:46Z"), "Isles win in overtime",
                                 "By Staff / 2 days"), url, TODAY)
    assert found is not None and found.published == date(2019, 11, 18)
    # A timestamp in the outlet's own zone keeps its day, and a date line beats the URL.
    found = extract(article_page(_stamped("2019-11-19T00:58:46-04:00"), "Isles win in overtime"),
                    url, TODAY)
    assert found is not None and found.published == date(2019, 11, 19)
    found = extract(article_page(_stamped("2019-11-20T06:07:01+0000"), "Isles win in overtime",
                                 "November 20, 2019 / 1:07 AM / Staff"),
                    "https://example.org/news/isles-win-2019-11-19/", TODAY)
    assert found is not None and found.published == date(2019, 11, 20)


def test_a_time_element_by_the_headline_dates_a_page_without_metadata():
    byline = ('<time class="updated" datetime="2019-11-20T09:00:00.000Z">Updated</time> '
              '<time datetime="2019-11-19T10:36:00.000Z">1 day ago</time>')
    found = extract(article_page("", "Isles win in overtime", byline,
                                 strip="Wednesday, November 20, 2019"),
                    "https://example.org/sports/isles", TODAY)
    assert found is not None and found.published == date(2019, 11, 19)
