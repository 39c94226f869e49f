"""An archived article's text without its site's boilerplate lines, as a crawl learns them:
a line that came on enough earlier articles of the same site (crawler.outlets) goes."""

from __future__ import annotations

from parawire.crawler.body import line_key
from parawire.crawler.extraction import Extracted
from parawire.crawler.outlets import OutletLearning, outlet_key
from parawire.records import Article


def strip_site_lines(learning: OutletLearning, article: Article) -> int:
    """Drop from the article's text the lines its site's earlier articles make boilerplate
    (blank lines never are), then count its lines for the next ones; returns how many lines
    went. Its content hash stays the record's: a record ingested again is a duplicate
    whatever was learned in between."""
    site = outlet_key(article.url)
    lines = article.text.split("\n")
    found = Extracted(title=article.title, text=article.text, author=article.author,
                      published=article.published,
                      line_keys=tuple(line_key(line) for line in lines if line.strip()))
    cleaned = learning.clean(site, found)
    learning.learn(site, found)
    article.text = cleaned.text
    return len(lines) - len(cleaned.text.split("\n"))
