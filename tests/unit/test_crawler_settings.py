"""The crawler's Scrapy settings: [crawl] comes from parawire's config, and nothing in a
crawl asks tldextract for the public suffix list."""

import sys

import pytest
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.cookies import CookiesMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings as ScrapySettings
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from tldextract import TLDExtract

from parawire.config import CrawlConfig
from parawire.crawler import settings as project
from parawire.crawler.runner import scrapy_settings
from parawire.crawler.spiders.news import NewsSpider

COMPONENTS = ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "EXTENSIONS", "ITEM_PIPELINES",
              "ADDONS")


def test_project_settings_hold_the_crawl_sections_defaults():
    """What `scrapy crawl news` reads from crawler/settings.py."""
    settings = ScrapySettings()
    settings.setmodule(project)
    assert settings["USER_AGENT"] == "parawire/0.1 (paraphrase corpus crawler)"
    for key, value in project.from_config(CrawlConfig()).items():
        assert settings[key] == value, key


def test_a_crawl_puts_its_crawl_section_over_the_project_settings():
    crawl = CrawlConfig(user_agent="tester", concurrent_requests=3, obey_robots=False)
    settings = scrapy_settings(crawl, LOG_LEVEL="INFO")
    assert settings["USER_AGENT"] == "tester"
    assert settings.getint("CONCURRENT_REQUESTS") == 3
    assert settings.getbool("ROBOTSTXT_OBEY") is False
    assert settings["LOG_LEVEL"] == "INFO"
    assert settings.getdict("ITEM_PIPELINES") == project.ITEM_PIPELINES


def test_the_contact_setting_goes_into_the_user_agent():
    crawl = CrawlConfig(user_agent="tester/1", contact="https://example.org/crawler")
    assert scrapy_settings(crawl)["USER_AGENT"] == "tester/1 (+https://example.org/crawler)"
    assert scrapy_settings(CrawlConfig(user_agent="tester/1"))["USER_AGENT"] == "tester/1"


def test_a_crawl_never_asks_tldextract_for_the_public_suffix_list():
    settings = scrapy_settings(CrawlConfig())
    for name in COMPONENTS:
        for path in build_component_list(settings.getwithbase(name)):
            load_object(path)
    for path in settings.getwithbase("DOWNLOAD_HANDLERS").values():
        if path:
            load_object(path)
    holders = {name for name, module in list(sys.modules.items())
               if not name.startswith("tldextract")
               and any(issubclass(type(value), TLDExtract) for value in vars(module).values())}
    # The only extractor (it fetches the list on first use) is Scrapy's cookie middleware's,
    # and a crawl's settings do not build that middleware.
    assert holders == {"scrapy.downloadermiddlewares.cookies"}
    with pytest.raises(NotConfigured):
        CookiesMiddleware.from_crawler(Crawler(NewsSpider, settings))


def test_a_crawl_serves_no_remote_control():
    """Scrapy's remote control would listen for Python code to run and write a job file."""
    settings = scrapy_settings(CrawlConfig())
    extensions = build_component_list(settings.getwithbase("EXTENSIONS"))
    assert "scrapy.extensions.corestats.CoreStats" in extensions
    assert not [path for path in extensions if "remote_control" in path]
    assert settings.getbool("TELNETCONSOLE_ENABLED") is False
