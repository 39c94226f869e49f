"""The crawl stage, in the stage contract's shape."""

from parawire.crawler.runner import run_crawl
from parawire.crawler.scope import CrawlScope
from parawire.stage import Stage

CRAWL = Stage(
    name="crawl",
    summary="Crawl the outlets' feeds, sitemaps and section pages for articles in the date window.",
    scope=CrawlScope, work=run_crawl)
