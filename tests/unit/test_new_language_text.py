"""Italian, Spanish and Dutch text: language detection and topic keyword groups."""

from __future__ import annotations

import json
import tomllib
from collections import Counter

import pytest

from parawire.crawler.language import detect_language
from parawire.crawler.sources import TOPICS, TOPICS_FILE
from parawire.crawler.topics import assign_topic

LANGUAGES = ("it", "es", "nl")


@pytest.mark.parametrize("language", LANGUAGES)
def test_meantime_articles_are_detected_in_their_language(shared_data, language):
    rows = [json.loads(line) for line in
            (shared_data / "meantime" / f"{language}.jsonl").read_text().splitlines()]
    detected = Counter(detect_language(" ".join(row["sentences"][1:])) for row in rows)
    assert detected[language] >= 0.97 * len(rows), detected


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_topic_has_keywords_and_meantime_is_mostly_economics_or_technology(
        shared_data, language):
    groups = tomllib.loads(TOPICS_FILE.read_text(encoding="utf-8"))[language]
    assert set(groups) == set(TOPICS)
    rows = [json.loads(line) for line in
            (shared_data / "meantime" / f"{language}.jsonl").read_text().splitlines()]
    topics = Counter(assign_topic(row["title"], " ".join(row["sentences"]), groups)
                     for row in rows)
    # MEANTIME covers Airbus, Apple, General Motors and the stock market.
    assert topics["economics"] + topics["technology"] >= 0.8 * len(rows), topics
