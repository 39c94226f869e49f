"""The crawl stage, in the stage contract's shape."""

from parawire.config import Settings
from parawire.crawler.runner import crawl_verdict, run_crawl
from parawire.crawler.scope import CrawlScope
from parawire.stage import Stage, Watch
from parawire.store import store_of


def articles_stored(settings: Settings) -> int:
    """Articles in the store: a crawl's progress is how many it has added."""
    return store_of(settings).count_articles()


CRAWL = Stage(
    name="crawl",
    summary="Crawl the outlets' feeds, sitemaps and section pages for articles in the date window.",
    scope=CrawlScope, work=run_crawl, watch=Watch(count=articles_stored, unit="article"),
    verdict=crawl_verdict)
