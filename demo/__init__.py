"""The bundled demo news site: fictional outlets covering the same fictional events."""

from parawire.demo.meantime import load_meantime, meantime_outlets
from parawire.demo.server import serve_demo
from parawire.demo.site import build_site, date_range, load_articles, sources_toml

__all__ = ["build_site", "date_range", "load_articles", "load_meantime", "meantime_outlets",
           "serve_demo", "sources_toml"]
