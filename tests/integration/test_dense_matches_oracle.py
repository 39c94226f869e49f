"""The dense source's candidates equal an exhaustive comparison of every reference with every
sentence: the top k − dense_lexical_k by cosine among those HCSSS's filters keep
(aligner/oracle.py) and that can pair at all (long enough, no rule of their own broken:
parawire/pairable.py), then the rest's top dense_lexical_k by TF-IDF cosine fitted on the
reference's date window, for references that can pair; those under dense_min_cosine left
out."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import date, timedelta

import numpy as np
import pytest

from parawire.aligner import AlignParams
from parawire.aligner.candidates import CANDIDATE_SOURCES, SearchContext
from parawire.aligner.lexical import LexicalPool
from parawire.aligner.oracle import within_filters
from parawire.indexer import ElasticsearchIndex, ElasticsearchVectors, VectorFiles, VectorStore
from parawire.pairable import fragment, pairable
from parawire.store import open_store
from tests.factories import make_sentence, store_annotated_article

OUTLETS = ["outlet-a", "outlet-b", "outlet-c"]


@pytest.fixture(scope="module", params=["files", "elasticsearch"])
def corpus(request, tmp_path_factory):
    """Thirty articles over nine days and three outlets, five sentences each, ending on a
    full stop (the last one of every other article a fragment, stopping on a comma), with
    random unit vectors (a few near-equal to others, as rewordings), in the vector files or
    in a real Elasticsearch (when PARAWIRE_TEST_ES_URL names one)."""
    folder = tmp_path_factory.mktemp("dense")
    store = open_store(f"sqlite:///{folder / 'store.db'}")
    rng = np.random.default_rng(11)
    ids: list[int] = []
    for n in range(30):
        sentences = [make_sentence(0, 0, [], [], text=f"article {n} sentence {i} "
                                   + " ".join(["word"] * (3 + i))
                                   + ("," if i == 4 and n % 2 else "."))
                     for i in range(5)]
        ids += store_annotated_article(store, f"http://news.test/{n}", sentences,
                                       source=OUTLETS[n % 3], topic=["a", "b"][n % 2],
                                       published=date(2026, 3, 1) + timedelta(days=n % 9))
    vectors = rng.normal(size=(len(ids), 16)).astype(np.float32)
    vectors[1::7] = vectors[::7][:len(vectors[1::7])] + 0.1 * vectors[1::7]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    if request.param == "files":
        files: VectorStore = VectorFiles(folder / "vectors", "test", "1", 16)
    else:
        index = ElasticsearchIndex(request.getfixturevalue("real_elasticsearch_url"),
                                   f"t{uuid.uuid4().hex[:12]}", compatible_media_types=False)
        files = ElasticsearchVectors(index, "en", "test", "1", 16)
    files.add(ids, vectors)
    return store, files


def cosine(files: VectorStore, a: int, b: int) -> float:
    return float(files.get([a])[0] @ files.get([b])[0])


@pytest.mark.parametrize("overrides", [
    {"dense_k": 3}, {"dense_k": 1, "exclude_same_outlet": True},
    {"dense_k": 5, "same_topic": True, "date_window_days": 1}, {"dense_k": 40},
    {"dense_k": 4, "dense_min_words": 9}, {"dense_k": 3, "dense_lexical_k": 0},
    {"dense_k": 6, "dense_lexical_k": 3, "date_window_days": 2},
    {"dense_k": 6, "dense_min_cosine": 0.3},
])
def test_dense_candidates_are_the_exact_top_k_of_the_filtered_sentences(corpus, overrides):
    store, files = corpus
    params = AlignParams(method="dense", **{"dense_min_words": 1, **overrides})
    sentences = [s for batch in store.iter_sentences() for s in batch]
    context = SearchContext(store, None, params, Counter(), vectors=lambda _: files)
    found = CANDIDATE_SOURCES["dense"].candidates(sentences, context)
    assert found and any(fragment(s) for s in sentences)
    assert not any(fragment(c.reference) or fragment(c.sentence) for c in found)
    got: dict[int, list[int]] = {}
    for candidate in found:
        got.setdefault(candidate.reference.id, []).append(candidate.sentence.id)
        assert candidate.features["cosine"] == pytest.approx(
            cosine(files, candidate.reference.id, candidate.sentence.id), abs=1e-5)
        assert np.sign(candidate.features["margin"]) == np.sign(candidate.features["cosine"])
    expected: dict[int, list[int]] = {}
    for reference in sentences:
        if not pairable(reference, params.dense_min_words):
            continue
        valid = [s for s in sentences if s.id != reference.id
                 and within_filters(reference, s, params)
                 and pairable(s, params.dense_min_words)]
        scores = [(-cosine(files, reference.id, s.id), s.id) for s in valid]
        best = [sid for _, sid in sorted(scores)[:params.dense_k - params.dense_lexical_k]]
        if params.dense_lexical_k:  # the rest's nearest by TF-IDF over the reference's window
            window = [s for s in sentences if s.language == reference.language
                      and abs((s.published - reference.published).days)
                      <= params.date_window_days]
            lexical = LexicalPool([s.id for s in window], [s.text for s in window])
            rest = [s.id for s in valid if s.id not in best]
            best += [sid for sid, _ in lexical.nearest(reference.text, rest,
                                                        params.dense_lexical_k)]
        best = [sid for sid in best
                if cosine(files, reference.id, sid) >= params.dense_min_cosine]
        if best:
            expected[reference.id] = best
    assert got == expected


def test_mutual_best_keeps_a_subset(corpus):
    store, files = corpus
    sentences = [s for batch in store.iter_sentences() for s in batch]
    pairs = {}
    for mutual in (False, True):
        params = AlignParams(method="dense", dense_min_words=1, dense_k=2, mutual_best=mutual)
        context = SearchContext(store, None, params, Counter(), vectors=lambda _: files)
        pairs[mutual] = {(c.reference.id, c.sentence.id)
                         for c in CANDIDATE_SOURCES["dense"].candidates(sentences, context)}
    assert pairs[True] < pairs[False] and pairs[True]
