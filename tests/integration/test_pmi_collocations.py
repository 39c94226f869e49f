"""Statistical (PMI) collocations learned by the annotate stage from real ECB+ articles."""

from __future__ import annotations

import json

import pytest

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.nlp import PmiCollocations, annotate_pending
from parawire.records import Article, ArticleOutcome
from parawire.store import store_of
from parawire.textnorm import content_hash

TOPIC = 10  # the Mark Teixeira free-agency articles: 21 of them, about 5,300 words
HELD_BACK = "10_4ecbplus"  # annotated last, alone


def _article(record: dict) -> Article:
    return Article(url=f"http://ecbplus/{record['id']}", source="ecbplus", language="en",
                   title=record["title"], text=record["text"], published=None, topic="baseball",
                   content_hash=content_hash(record["text"]))


@pytest.fixture(scope="module")
def corpus(shared_data, tmp_path_factory):
    """A store with the topic's articles annotated but one, kept back."""
    with (shared_data / "ecbplus" / "articles.jsonl").open() as lines:
        records = [r for r in map(json.loads, lines) if r["topic"] == TOPIC]
    settings = load_settings(data_dir=tmp_path_factory.mktemp("pmi"),
                             nlp={"pmi_min_count": 3, "pmi_threshold": 0.5})
    store = store_of(settings)
    stored = [store_article(store, _article(r)) for r in records if r["id"] != HELD_BACK]
    counts = annotate_pending(settings, store)
    assert counts["articles"] == stored.count(ArticleOutcome.STORED) >= 15
    return settings, store, next(r for r in records if r["id"] == HELD_BACK)


def _statistics(store, min_count: int = 3) -> PmiCollocations:
    statistics = PmiCollocations(min_count=min_count, threshold=0.5)
    for batch in store.iter_sentences():
        statistics.update(batch)
    return statistics


def test_names_and_terms_of_the_story_are_learned_and_chance_pairs_are_not(corpus):
    _, store, _ = corpus
    statistics = _statistics(store)
    learned = statistics.learned()
    assert {("red", "sox"), ("general", "manager"), ("free", "agent")} <= set(learned)
    assert statistics.npmi(("red", "sox")) > 0.9
    # frequent enough, but "year" goes with many nouns: no collocation
    assert statistics.pairs[("year", "offer")] >= 3 and ("year", "offer") not in learned
    # below the minimum count nothing is learned, however exclusive the pair
    assert statistics.pairs[("torii", "hunter")] < 5
    assert ("torii", "hunter") not in _statistics(store, min_count=5).learned()


def test_stored_sentences_carry_the_learned_collocations(corpus):
    _, store, _ = corpus
    free_agent = [s for batch in store.iter_sentences() for s in batch if "free agent" in s.text]
    assert free_agent  # no noun chunk or name is just "free agent": the pair comes from PMI
    for sentence in free_agent:
        (found,) = [c for c in sentence.collocations if c.lemma == "free agent"]
        i = sentence.tokens.index("free")
        assert found.text in ("free agent", "free agents")  # the sentence's words, lemmatised pair
        assert found.pos == f"{sentence.pos[i]} {sentence.pos[i + 1]}"
    with_red_sox = [s for batch in store.iter_sentences() for s in batch if "Red Sox" in s.text]
    assert with_red_sox
    for sentence in with_red_sox:
        (found,) = [c for c in sentence.collocations if c.lemma == "red sox"]  # once, whatever its source
        i = sentence.tokens.index("Red")
        assert (found.text, found.pos) == ("Red Sox", f"{sentence.pos[i]} {sentence.pos[i + 1]}")


def test_a_later_article_is_annotated_alone_with_the_corpus_counts(corpus):
    settings, store, held_back = corpus
    known = {s.article_id for batch in store.iter_sentences() for s in batch}
    assert store_article(store, _article(held_back)) == ArticleOutcome.STORED
    counts = annotate_pending(settings, store)
    assert counts["articles"] == 1 and counts["sentences"] > 5
    assert annotate_pending(settings, store) == {}  # nothing left to annotate
    new = [s for batch in store.iter_sentences() for s in batch if s.article_id not in known]
    alone = PmiCollocations(min_count=3, threshold=0.5)
    alone.update(new)
    for words in ("general manager", "first baseman"):
        # its own mentions are too few, but with the corpus counts the pair is a collocation
        assert not alone.is_collocation(tuple(words.split()))
        having = [s for s in new if words in s.text.casefold()]
        assert having and all(words in {c.lemma for c in s.collocations} for s in having)
