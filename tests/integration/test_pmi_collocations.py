"""Statistical (PMI) collocations learned by the annotate stage from real ECB+ articles."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.nlp import PmiCollocations, annotate_pending
from parawire.records import Article, ArticleOutcome, Sentence
from parawire.store import store_of
from parawire.textnorm import content_hash

TOPIC = 10  # the Mark Teixeira free-agency articles: 21 of them, about 5,300 words
HELD_BACK = "10_4ecbplus"  # annotated last, alone


def _article(record: dict) -> Article:
    return Article(url=f"http://ecbplus/{record['id']}", source="ecbplus", language="en",
                   title=record["title"], text=record["text"], published=None, topic="baseball",
                   content_hash=content_hash(record["text"]))


@pytest.fixture(scope="module")
def records(shared_data) -> list[dict]:
    """The topic's ECB+ articles."""
    with (shared_data / "ecbplus" / "articles.jsonl").open() as lines:
        return [r for r in map(json.loads, lines) if r["topic"] == TOPIC]


def _settings(data_dir, **nlp):
    return load_settings(data_dir=data_dir, nlp={"pmi_min_count": 3, "pmi_threshold": 0.5, **nlp})


@pytest.fixture(scope="module")
def corpus(records, tmp_path_factory):
    """A store with the topic's articles annotated but one, kept back."""
    settings = _settings(tmp_path_factory.mktemp("pmi"))
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


class CountingStore:
    """A real store that counts the calls of its methods and the sentences they hand out."""

    def __init__(self, store) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()
        self.sentences_read = 0

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not callable(attribute):
            return attribute

        def call(*args, **kwargs):
            self.calls[name] += 1
            result = attribute(*args, **kwargs)
            if isinstance(result, Iterator):
                return self._counted(result)
            self._count(result)
            return result

        return call

    def _counted(self, items: Iterator) -> Iterator:
        for item in items:
            self._count(item)
            yield item

    def _count(self, value: Any) -> None:
        if isinstance(value, Sentence):
            self.sentences_read += 1
        elif isinstance(value, list | tuple | set):
            for item in value:
                self._count(item)
        elif isinstance(value, dict):
            for item in value.values():
                self._count(item)


def _store_and_annotate(settings, records: list[dict]) -> dict[str, int | None]:
    """Store the articles and annotate them in one run; returns their ids by ECB+ id."""
    store = store_of(settings)
    articles = {record["id"]: _article(record) for record in records}
    for article in articles.values():
        store_article(store, article)
    annotate_pending(settings, store)
    return {key: article.id for key, article in articles.items()}


def _collocations(store, article_id: int) -> list[list[tuple[str, str, str]]]:
    return [[(c.text, c.lemma, c.pos) for c in s.collocations]
            for batch in store.iter_sentences() for s in batch if s.article_id == article_id]


def _every_sentence(store) -> PmiCollocations:
    statistics = PmiCollocations()
    for batch in store.iter_sentences():
        statistics.update(batch)
    return statistics


@pytest.fixture(scope="module")
def one_run(records, tmp_path_factory):
    """Every article of the topic annotated in one run: the store and the held-back
    article's collocations."""
    settings = _settings(tmp_path_factory.mktemp("one-run"))
    ids = _store_and_annotate(settings, records)
    store = store_of(settings)
    return store, _collocations(store, ids[HELD_BACK])


def _annotate_held_back(settings, records) -> tuple[CountingStore, int]:
    """Annotate the held-back article alone, through a store that counts what it reads."""
    counting = CountingStore(store_of(settings))
    held_back = _article(next(r for r in records if r["id"] == HELD_BACK))
    assert store_article(counting, held_back) == ArticleOutcome.STORED
    assert annotate_pending(settings, counting)["articles"] == 1
    return counting, held_back.id


def test_a_later_run_reads_the_kept_counts_not_the_sentences(records, one_run, tmp_path):
    everything, collocations = one_run
    settings = _settings(tmp_path)
    _store_and_annotate(settings, [r for r in records if r["id"] != HELD_BACK])
    counting, article_id = _annotate_held_back(settings, records)
    assert counting.sentences_read == 0 and counting.calls["iter_sentences"] == 0
    assert counting.calls["collocation_counts"] == 1
    # The same collocations as when everything is annotated in one run, and the same
    # counts as counting every stored sentence.
    assert _collocations(counting, article_id) == collocations
    assert any(lemma == "general manager" for sentence in collocations
               for _, lemma, _ in sentence)
    kept = counting.collocation_counts("en")
    assert kept == _every_sentence(counting).counts == everything.collocation_counts("en")


def test_articles_annotated_without_counts_are_counted_once(records, one_run, tmp_path):
    everything, collocations = one_run
    _store_and_annotate(_settings(tmp_path, pmi=False),
                        [r for r in records if r["id"] != HELD_BACK])
    settings = _settings(tmp_path)  # the same store, now with nlp.pmi on
    stored = store_of(settings).count_sentences()
    counting, article_id = _annotate_held_back(settings, records)
    assert counting.sentences_read == stored  # each stored sentence read once, to count it
    assert _collocations(counting, article_id) == collocations
    assert counting.collocation_counts("en") == everything.collocation_counts("en")
    assert list(counting.uncounted_sentences("en")) == []
