"""Scrapy settings for parawire's crawler (`scrapy crawl news` uses them too).

Whatever parawire's [crawl] section covers comes from it through `from_config`: this module
holds CrawlConfig's defaults, and a crawl run puts the loaded config over them. The rest is
Scrapy plumbing.
"""

from typing import Any

from parawire.config import CrawlConfig


def from_config(crawl: CrawlConfig) -> dict[str, Any]:
    """Scrapy settings from the [crawl] section of parawire's config."""
    return {
        "USER_AGENT": crawl.agent(),
        "ROBOTSTXT_OBEY": crawl.obey_robots,
        "CONCURRENT_REQUESTS": crawl.concurrent_requests,
        "CONCURRENT_REQUESTS_PER_DOMAIN": crawl.concurrent_per_domain,
        "AUTOTHROTTLE_ENABLED": crawl.autothrottle,
        "DOWNLOAD_TIMEOUT": crawl.download_timeout,
        "DOWNLOAD_MAXSIZE": crawl.max_download_bytes,
        "RETRY_TIMES": crawl.retry_times,
        # Seconds before the first retry, doubled for each further one (crawler.retry).
        "RETRY_BACKOFF_BASE": crawl.retry_backoff,
    }


BOT_NAME = "parawire"
SPIDER_MODULES = ["parawire.crawler.spiders"]
NEWSPIDER_MODULE = "parawire.crawler.spiders"

DOWNLOAD_WARNSIZE = 0
AUTOTHROTTLE_START_DELAY = 0.25
AUTOTHROTTLE_MAX_DELAY = 10
AUTOTHROTTLE_TARGET_CONCURRENCY = 4.0
RETRY_ENABLED = True
RETRY_HTTP_CODES = [429, 500, 502, 503, 504, 522, 524, 408]
RETRY_BACKOFF_MAX = 60.0
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "parawire.crawler.retry.BackoffRetryMiddleware": 550,
}
REDIRECT_MAX_TIMES = 5
# Outputs of one callback handled at once. An article page yields one item; Scrapy starts
# this many asyncio tasks for every response, and its default (100) spent a third of the
# crawl's time on tasks with nothing to do.
CONCURRENT_ITEMS = 4
# Off: articles need no cookies. Scrapy's cookie middleware is also the only part of a crawl
# that uses tldextract, which fetches the public suffix list on first use; with it off, a
# crawl looks nothing up (tests/unit/test_crawler_settings.py).
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
# Off: Scrapy's remote control (2.19) would serve, in every crawl, an HTTP endpoint that runs
# Python code sent to it, and write a job file under the user's state directory.
EXTENSIONS = {"scrapy.extensions.remote_control.RemoteControl": None}
LOG_LEVEL = "WARNING"
ITEM_PIPELINES = {"parawire.crawler.pipelines.StorePipeline": 300}

# The [crawl] defaults as module-level settings, where Scrapy reads them.
globals().update(from_config(CrawlConfig()))
