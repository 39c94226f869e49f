"""Scrapy spiders of parawire."""
