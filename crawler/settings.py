"""Scrapy settings for parawire's crawler (`scrapy crawl news` uses them too)."""

import os

# Use the public suffix list bundled with tldextract; never fetch it.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

BOT_NAME = "parawire"
SPIDER_MODULES = ["parawire.crawler.spiders"]
NEWSPIDER_MODULE = "parawire.crawler.spiders"

ROBOTSTXT_OBEY = True
USER_AGENT = "parawire/0.1 (paraphrase corpus crawler)"
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_TIMEOUT = 20
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 0.25
AUTOTHROTTLE_MAX_DELAY = 10
AUTOTHROTTLE_TARGET_CONCURRENCY = 4.0
RETRY_ENABLED = True
RETRY_TIMES = 2
RETRY_HTTP_CODES = [429, 500, 502, 503, 504, 522, 524, 408]
# Seconds before the first retry, doubled for each further one (crawler.retry).
RETRY_BACKOFF_BASE = 1.0
RETRY_BACKOFF_MAX = 60.0
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "parawire.crawler.retry.BackoffRetryMiddleware": 550,
}
REDIRECT_MAX_TIMES = 5
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "WARNING"
ITEM_PIPELINES = {"parawire.crawler.pipelines.StorePipeline": 300}
