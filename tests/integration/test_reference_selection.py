"""Reference selection filters its scope in the store: the same ids, in the same order, as
reading every stored sentence and filtering it in Python."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parawire.aligner import AlignParams, is_reference, select_references
from parawire.records import Article, Sentence
from parawire.store import open_store
from tests.factories import make_sentence

DAYS = [date(2026, 3, 1) + timedelta(days=n) for n in range(6)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A store of sentences over two languages, two topics, six days and no date."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('refs') / 'store.db'}")
    rng = random.Random(3)
    for n in range(80):
        language, topic = rng.choice(["en", "en", "fr"]), rng.choice(["politics", "sports"])
        published = rng.choice([None, *DAYS])
        article = Article(url=f"http://refs.test/{n}", source="outlet-a", language=language,
                          title="", text=f"text {n}", published=published, topic=topic,
                          content_hash=f"{n:064d}")
        store.add_article(article)
        store.save_annotations(article.id, [
            make_sentence(None, article.id, rng.sample(["a", "b", "c", "d"], rng.randint(0, 4)),
                          rng.sample(["w", "x", "y", "z"], rng.randint(0, 4)), position=k,
                          language=language, topic=topic, published=published)
            for k in range(rng.randint(0, 3))])
    return store, [s for batch in store.iter_sentences() for s in batch]


def in_scope(sentence: Sentence, params: AlignParams) -> bool:
    """The run's scope, as selection filtered every sentence before the store did."""
    if params.language and sentence.language != params.language:
        return False
    if params.topic and sentence.topic != params.topic:
        return False
    if params.since or params.until:
        if sentence.published is None:
            return False
        if params.since and sentence.published < params.since:
            return False
        if params.until and sentence.published > params.until:
            return False
    return True


@settings(max_examples=80, deadline=None)
@given(language=st.sampled_from([None, "en", "fr", "de"]),
       topic=st.sampled_from([None, "politics", "sports"]),
       since=st.none() | st.sampled_from(DAYS), until=st.none() | st.sampled_from(DAYS),
       min_cn=st.integers(1, 3), min_pn=st.integers(0, 3), sparse_min_pn=st.integers(0, 3))
def test_selection_equals_filtering_every_sentence(stored, language, topic, since, until,
                                                   min_cn, min_pn, sparse_min_pn):
    store, sentences = stored
    params = AlignParams(language=language, topic=topic, since=since, until=until,
                         min_cn=min_cn, min_pn=min_pn, sparse_min_pn=sparse_min_pn)
    expected = [s.id for s in sentences
                if in_scope(s, params) and is_reference(s.pn, s.cn, params.constraints)]
    assert select_references(store, params) == expected
