from datetime import date

import pytest

from parawire.crawler.listings import ListingError, parse_date, parse_feed, parse_sitemap

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>
<item><title>a</title><link>http://n.test/a.html</link>
<pubDate>Mon, 02 Mar 2026 08:15:00 +0000</pubDate></item>
<item><title>b</title><link>http://n.test/b.html</link></item></channel></rss>"""

ATOM = b"""<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">
<entry><link rel="alternate" href="http://n.test/c.html"/><updated>2026-03-04T10:00:00Z</updated>
</entry></feed>"""

INDEX = b"""<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://n.test/s1.xml</loc></sitemap></sitemapindex>"""

NEWS = b"""<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
 xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>http://n.test/d.html</loc><lastmod>2026-03-09</lastmod>
<news:news><news:publication_date>2026-03-05T06:00:00+01:00</news:publication_date></news:news>
</url></urlset>"""


def test_rss_and_atom_links_with_dates():
    assert [(i.url, i.day) for i in parse_feed(RSS)] == [
        ("http://n.test/a.html", date(2026, 3, 2)), ("http://n.test/b.html", None)]
    assert [(i.url, i.day) for i in parse_feed(ATOM)] == [("http://n.test/c.html", date(2026, 3, 4))]


def test_sitemap_index_and_news_publication_date():
    (child,) = parse_sitemap(INDEX)
    assert child.is_sitemap and child.url == "http://n.test/s1.xml"
    (page,) = parse_sitemap(NEWS)
    assert page.day == date(2026, 3, 5) and not page.is_sitemap


@pytest.mark.parametrize("body", [b"<rss><channel><item>", b"", b"<html><body>hi</body></html>",
                                  b"\xff\xfe garbage"])
def test_invalid_listings_raise(body):
    with pytest.raises(ListingError):
        parse_feed(body)
    with pytest.raises(ListingError):
        parse_sitemap(body)


def test_dates():
    assert parse_date("2026-03-02") == date(2026, 3, 2)
    assert parse_date("Tue, 03 Mar 2026 23:59:00 GMT") == date(2026, 3, 3)
    assert parse_date("yesterday") is None
