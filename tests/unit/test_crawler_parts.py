from datetime import date

import pytest

from parawire.crawler import assign_topic, canonical_url, extract, load_sources
from parawire.errors import ParawireError

GROUPS = {"sports": ["match", "goal", "cup"], "politics": ["council", "vote", "mayor"]}


def test_topic_by_keyword_groups():
    assert assign_topic("Cup final", "The match ended with a late goal.", GROUPS) == "sports"
    assert assign_topic("Mayor wins vote", "The council agreed.", GROUPS) == "politics"
    assert assign_topic("Weather", "Sunny spells.", GROUPS) == "other"


def test_canonical_url_strips_tracking_and_fragment():
    assert canonical_url("http://News.test/a?utm_source=x&id=3&fbclid=9#top") == \
        "http://news.test/a?id=3"


def test_extract_main_text_title_and_date():
    body = "".join(f"<p>Paragraph {i} says the harbour council approved a budget.</p>"
                   for i in range(6))
    html = ("<html><head><title>Budget | Gazette</title>"
            '<meta property="article:published_time" content="2026-03-02T08:00:00">'
            f"</head><body><nav>Home Sport</nav><article><h1>Budget passes</h1>{body}</article>"
            "<footer>Copyright</footer></body></html>")
    found = extract(html, "http://n.test/a.html", today=date(2026, 3, 9))
    assert found is not None
    assert found.title == "Budget passes"
    assert found.published == date(2026, 3, 2)
    assert found.text.splitlines()[0] == "Paragraph 0 says the harbour council approved a budget."
    assert "Copyright" not in found.text


def test_future_dates_are_dropped():
    html = ('<html><head><meta property="article:published_time" content="2030-01-01">'
            "</head><body><article><p>" + "Words about a match. " * 30 + "</p></article></body></html>")
    found = extract(html, "http://n.test/b.html", today=date(2026, 3, 9))
    assert found is not None and found.published is None


@pytest.mark.parametrize(("text", "message"), [
    ('[[outlet]]\nname = "gazette"\nlanguage = "en"\ndomains = ["g.test"]\nfeeds = ["nope"]\n',
     "outlet 'gazette', field 'feeds.0'"),
    ('[[outlet]]\nname = "gazette"\nlanguage = "en"\ndomains = []\nfeeds = ["http://g.test/f"]\n',
     "outlet 'gazette', field 'domains'"),
    ('[[outlet]]\nname = "gazette"\nlanguage = "en"\ndomains = ["g.test"]\n',
     "outlet 'gazette' has no feeds, sitemaps or sections"),
    ('[[outlet]]\nname = "g"\nlanguage = "en"\ndomains = ["g.test"]\nfeeds = ["http://g/f"]\n'
     '[[outlet]]\nname = "g"\nlanguage = "en"\ndomains = ["g.test"]\nfeeds = ["http://g/f"]\n',
     "listed twice"),
    ("[[outlet]\n", "not valid TOML"),
])
def test_bad_sources_files_name_outlet_and_field(tmp_path, text, message):
    path = tmp_path / "sources.toml"
    path.write_text(text)
    with pytest.raises(ParawireError, match=message) as caught:
        load_sources(path)
    assert "\n" not in str(caught.value)


def test_sources_can_override_topic_groups(tmp_path):
    path = tmp_path / "sources.toml"
    path.write_text('[topics.en]\nsports = ["regatta"]\n[[outlet]]\nname = "g"\nlanguage = "en"\n'
                    'domains = ["g.test"]\nsitemaps = ["http://g.test/s.xml"]\n')
    sources = load_sources(path)
    assert sources.topics["en"]["sports"] == ["regatta"]
    assert "council" in sources.topics["en"]["politics"]
