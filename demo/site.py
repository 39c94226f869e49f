"""The demo news site: fictional outlets rendered to pages, feeds and sitemaps."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from datetime import datetime
from html import escape
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

HERE = Path(__file__).parent
CONTENT_DIR = HERE / "content"
OUTLETS_FILE = HERE / "outlets.toml"


@dataclass(frozen=True, slots=True)
class DemoArticle:
    """One article of the demo site, as written in demo/content."""

    outlet: str
    slug: str
    title: str
    author: str
    published: datetime
    paragraphs: tuple[str, ...]

    @property
    def path(self) -> str:
        """Its URL path on the demo site."""
        return f"/{self.outlet}/{self.published:%Y/%m/%d}/{self.slug}.html"


def parse_article(outlet: str, path: Path) -> DemoArticle:
    """Read one content file: header lines, a '---' line, then paragraphs."""
    head, _, body = path.read_text(encoding="utf-8").partition("\n---\n")
    fields = dict(line.split(":", 1) for line in head.splitlines() if ":" in line)
    fields = {key.strip(): value.strip() for key, value in fields.items()}
    paragraphs = tuple(p.strip().replace("\n", " ") for p in body.split("\n\n") if p.strip())
    return DemoArticle(
        outlet=outlet,
        slug=path.stem.split("-", 3)[-1],
        title=fields["title"],
        author=fields["author"],
        published=datetime.fromisoformat(fields["published"]),
        paragraphs=paragraphs,
    )


def load_outlets() -> list[dict]:
    """The demo outlets' settings."""
    return tomllib.loads(OUTLETS_FILE.read_text(encoding="utf-8"))["outlet"]


def load_articles() -> list[DemoArticle]:
    """Every demo article, newest first within each outlet."""
    found = [
        parse_article(outlet["slug"], path)
        for outlet in load_outlets()
        for path in sorted((CONTENT_DIR / outlet["slug"]).glob("*.md"))
    ]
    return sorted(found, key=lambda a: (a.outlet, a.published), reverse=True)


def _date_markup(outlet: dict, article: DemoArticle) -> tuple[str, str]:
    """(markup for <head>, markup for the byline) marking the publication date."""
    iso = article.published.isoformat()
    shown = f"{article.published:%A %d %B %Y, %H:%M}"
    if outlet["date_markup"] == "meta":
        return f'<meta property="article:published_time" content="{iso}">', escape(shown)
    if outlet["date_markup"] == "jsonld":
        data = {"@context": "https://schema.org", "@type": "NewsArticle",
                "headline": article.title, "datePublished": iso,
                "author": {"@type": "Person", "name": article.author}}
        return f'<script type="application/ld+json">{json.dumps(data)}</script>', escape(shown)
    return "", f'<time datetime="{iso}">{escape(shown)}</time>'


def render_article(outlet: dict, article: DemoArticle, others: list[DemoArticle]) -> str:
    """An article page with the outlet's navigation, sidebar and footer around it."""
    head_date, byline_date = _date_markup(outlet, article)
    nav = "".join(f'<li><a href="/{outlet["slug"]}/">{escape(s)}</a></li>'
                  for s in outlet["sections"])
    body = "".join(f"<p>{escape(p)}</p>" for p in article.paragraphs)
    related = "".join(f'<li><a href="{o.path}">{escape(o.title)}</a></li>' for o in others[:5])
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{escape(article.title)} | {escape(outlet["title"])}</title>
<link rel="canonical" href="{article.path}">
<meta name="author" content="{escape(article.author)}">
{head_date}
<style>header{{background:{outlet["color"]};color:#fff}}</style>
</head><body>
<header><div class="masthead">{escape(outlet["title"])}</div>
<div class="tagline">{escape(outlet["tagline"])}</div><nav><ul>{nav}</ul></nav></header>
<main><article>
<h1>{escape(article.title)}</h1>
<p class="byline">By <span class="author">{escape(article.author)}</span> · {byline_date}</p>
<div class="article-body">{body}</div>
</article>
<aside class="related"><h2>More from {escape(outlet["title"])}</h2><ul>{related}</ul></aside>
</main>
<footer><p>Subscribe to our newsletter for the day's headlines.</p>
<p>© 2026 {escape(outlet["title"])}. All rights reserved. Terms · Privacy · Contact</p></footer>
</body></html>"""


def render_index(outlet: dict, articles: list[DemoArticle]) -> str:
    """The outlet's front page: a list of its articles."""
    items = "".join(f'<li><a href="{a.path}">{escape(a.title)}</a></li>' for a in articles)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(outlet['title'])}"
            f"</title></head><body><h1>{escape(outlet['title'])}</h1><ul>{items}</ul></body></html>")


def render_feed(outlet: dict, articles: list[DemoArticle], base: str) -> str:
    """The outlet's RSS 2.0 or Atom feed."""
    if outlet["feed"] == "atom":
        entries = "".join(
            f"<entry><title>{xml_escape(a.title)}</title>"
            f'<link rel="alternate" href="{base}{a.path}"/><id>{base}{a.path}</id>'
            f"<published>{a.published.isoformat()}Z</published>"
            f"<updated>{a.published.isoformat()}Z</updated></entry>"
            for a in articles
        )
        return ('<?xml version="1.0" encoding="utf-8"?>'
                f'<feed xmlns="http://www.w3.org/2005/Atom"><title>{xml_escape(outlet["title"])}'
                f"</title><id>{base}/{outlet['slug']}/</id>{entries}</feed>")
    items = "".join(
        f"<item><title>{xml_escape(a.title)}</title><link>{base}{a.path}</link>"
        f"<guid>{base}{a.path}</guid>"
        f"<pubDate>{a.published:%a, %d %b %Y %H:%M:%S} +0000</pubDate></item>"
        for a in articles
    )
    return ('<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>{xml_escape(outlet['title'])}</title><link>{base}/{outlet['slug']}/</link>"
            f"{items}</channel></rss>")


def render_sitemap(articles: list[DemoArticle], base: str) -> str:
    """A sitemap of the outlet's articles with their lastmod dates."""
    urls = "".join(
        f"<url><loc>{base}{a.path}</loc><lastmod>{a.published:%Y-%m-%d}</lastmod></url>"
        for a in articles
    )
    return ('<?xml version="1.0" encoding="utf-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>')


def build_site(base: str, outlets: list[dict] | None = None,
               articles: list[DemoArticle] | None = None) -> dict[str, tuple[str, bytes]]:
    """Every path of the site mapped to (content type, body), for a server at `base` (the
    demo outlets and articles unless others are given)."""
    outlets = load_outlets() if outlets is None else outlets
    articles = load_articles() if articles is None else articles
    pages: dict[str, tuple[str, bytes]] = {
        "/robots.txt": ("text/plain", b"User-agent: *\nAllow: /\n"),
    }
    html, xml = "text/html; charset=utf-8", "application/xml; charset=utf-8"
    for outlet in outlets:
        own = [a for a in articles if a.outlet == outlet["slug"]]
        prefix = f"/{outlet['slug']}"
        pages[f"{prefix}/"] = (html, render_index(outlet, own).encode())
        pages[f"{prefix}/feed.xml"] = (xml, render_feed(outlet, own, base).encode())
        pages[f"{prefix}/sitemap.xml"] = (xml, render_sitemap(own, base).encode())
        for article in own:
            others = [a for a in own if a is not article]
            pages[article.path] = (html, render_article(outlet, article, others).encode())
    return pages


def sources_toml(base: str, outlets: list[dict] | None = None, language: str = "en") -> str:
    """A sources file for the crawler that points at the site served at `base` (the demo
    outlets unless others are given, publishing in `language`)."""
    host = base.split("//", 1)[1].split(":", 1)[0]
    blocks = []
    for outlet in load_outlets() if outlets is None else outlets:
        prefix = f"{base}/{outlet['slug']}"
        blocks.append(
            f'[[outlet]]\nname = "{outlet["slug"]}"\nlanguage = "{language}"\n'
            f'domains = ["{host}"]\n'
            f'feeds = ["{prefix}/feed.xml"]\nsitemaps = ["{prefix}/sitemap.xml"]\n'
        )
    return "\n".join(blocks)


def date_range() -> tuple[datetime, datetime]:
    """The first and last publication times of the demo articles."""
    times = [a.published for a in load_articles()]
    return min(times), max(times)
