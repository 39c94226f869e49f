"""The embed stage on real sentences: one vector per pairable sentence, computed once (a
second run embeds only what became pairable), empty texts and left-out sentences counted,
and an alignment run with the dense source finding a reworded partner that shares no name."""

from __future__ import annotations

import uuid
from datetime import date

import numpy as np
import pytest

from parawire.config import load_settings
from parawire.indexer import VectorFiles, stored_vectors, vectors_folder
from parawire.nlp import embedder_for
from parawire.records import Story
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import make_claim, store_annotated_article

TEXTS = [
    ["The Pentagon said on Monday it would send more troops to the region.",
     "Storm knocks out power to thousands across the Gulf Coast overnight."],
    ["The Defense Department announced additional soldiers will deploy to the area.",
     "A local bakery won a prize for its sourdough bread this weekend."],
]


SHORT = "Officials declined to comment."
# The Hill (AllSides, 2020): a name followed by a run of related-article links ("… MORE"),
# which the aligner drops whatever its partner (a link line), so it needs no vector
LINK_RUN = ("The House is expected to pass the legislation by a recorded vote on Thursday "
            "because libertarian Rep. Thomas Massie Thomas Harold MassieHouse leaders enact new "
            "safety precautions for votes House Republicans push back against proxy voting "
            "Schumer predicts Senate passage of relief bill Tuesday MORE (R-Ky.) and other "
            "Republicans insisted on having a formal roll call vote.")


@pytest.mark.within_story
def test_embed_the_pairable_sentences_once_then_those_that_become_pairable(tmp_path):
    """By default only sentences of a story told by two outlets, of dense_min_words words or
    more and breaking no rule of their own (a link line here), are embedded; an article that
    joins such a story later (here one stored first, so its ids are lower) is embedded by the
    next run, and nothing is computed twice."""
    settings = load_settings(data_dir=tmp_path)
    store = store_of(settings)
    late = store_annotated_article(store, "http://news.test/late",
                                   [make_claim(TEXTS[0][0]),
                                    make_claim("   ")],
                                   source="outlet-9", published=date(2026, 3, 3))
    for n, texts in enumerate(TEXTS):
        store_annotated_article(store, f"http://news.test/{n}",
                                [make_claim(t) for t in [*texts, SHORT, LINK_RUN]],
                                source=f"outlet-{n}", published=date(2026, 3, 2))
    articles = {s.source: s.article_id for batch in store.iter_sentences() for s in batch}
    told = Story("en", date(2026, 3, 2), date(2026, 3, 2),
                 [articles["outlet-0"], articles["outlet-1"]], ["outlet-0", "outlet-1"], "troops")
    alone = Story("en", date(2026, 3, 3), date(2026, 3, 3), [articles["outlet-9"]],
                  ["outlet-9"], "troops again")
    assert "run `parawire stories` first" in run_stage(settings, "embed")["note"]
    store.save_stories([told, alone])
    first = run_stage(settings, "embed")
    assert first == {"embedded": 4, "left_out_short": 2, "left_out_link_line": 2,
                     "left_out_no_story": 2, "vectors": 4, "truncated": 0}
    files = VectorFiles.existing(vectors_folder(tmp_path, "en"))
    before = np.array(files.vectors)

    told.article_ids.append(articles["outlet-9"])
    told.outlets.append("outlet-9")
    store.save_stories([told])
    store.delete_stories([alone.id])
    second = run_stage(settings, "embed")
    assert second["embedded"] == 1 and second["skipped_empty"] == 1 and second["vectors"] == 5
    files = VectorFiles.existing(vectors_folder(tmp_path, "en"))
    assert np.array_equal(files.vectors[:4], before)  # nothing recomputed
    copy = next(s.id for batch in store.iter_sentences() for s in batch
                if s.source == "outlet-0" and s.text == TEXTS[0][0])
    assert np.allclose(files.get([late[0]]), files.get([copy]), atol=1e-5)  # equal texts
    assert run_stage(settings, "embed").get("embedded", 0) == 0
    assert run_stage(settings, "embed", redo=True)["embedded"] == 5
    every = load_settings(data_dir=tmp_path, vectors={"embed": "all"})
    assert run_stage(every, "embed")["embedded"] == 4  # the short ones and the link lines

    aligned = load_settings(data_dir=tmp_path, align={"method": "dense", "dense_k": 1,
                                                      "min_stored_grade": 0})
    run_stage(aligned, "index")
    counts = run_stage(aligned, "align")
    assert counts["dense_candidates"] >= 2
    ids = {s.text: s.id for batch in store.iter_sentences() for s in batch
           if s.source in ("outlet-0", "outlet-1")}
    files = VectorFiles.existing(vectors_folder(tmp_path, "en"))
    (hits,) = files.search(files.get([ids[TEXTS[0][0]]]), [ids[TEXTS[1][0]], ids[TEXTS[1][1]],
                                                           ids[TEXTS[0][1]]], 1)
    assert hits[0][0] == ids[TEXTS[1][0]]  # the rewording that shares no name


FRENCH = ["Le Pentagone a annoncé lundi l'envoi de troupes supplémentaires dans la région.",
          "Le ministère de la Défense enverra davantage de soldats dans la zone, a-t-il dit."]


def test_a_run_without_a_language_searches_each_language_among_its_own_vectors(tmp_path):
    """English and French references, each embedded by its language's model into its own
    files: an alignment run over every language finds dense candidates in both."""
    settings = load_settings(data_dir=tmp_path, align={"method": "dense", "dense_k": 1,
                                                       "min_stored_grade": 0})
    store = store_of(settings)
    for n, (english, french) in enumerate(zip(TEXTS, FRENCH, strict=True)):
        store_annotated_article(store, f"http://news.test/en-{n}",
                                [make_claim(english[0])],
                                source=f"outlet-{n}", published=date(2026, 3, 2))
        store_annotated_article(store, f"http://news.test/fr-{n}",
                                [make_claim(french, language="fr")],
                                source=f"outlet-{n}", published=date(2026, 3, 2), language="fr")
    assert run_stage(settings, "embed")["embedded"] == 4
    run_stage(settings, "index")
    counts = run_stage(settings, "align")
    assert counts["dense_references"] == 4 and counts.get("dense_no_vector", 0) == 0, counts
    assert counts["dense_candidates"] == 4, counts  # each one's rewording, in its language


def store_a_told_story(settings) -> dict[str, int]:
    """TEXTS' two articles (two outlets, one story): their sentence ids by text."""
    store = store_of(settings)
    articles = [store_annotated_article(store, f"http://news.test/{n}",
                                        [make_claim(t) for t in texts],
                                        source=f"outlet-{n}", published=date(2026, 3, 2))
                for n, texts in enumerate(TEXTS)]
    article_ids = sorted({s.article_id for batch in store.iter_sentences() for s in batch})
    store.save_stories([Story("en", date(2026, 3, 2), date(2026, 3, 2), article_ids,
                              ["outlet-0", "outlet-1"], "troops")])
    return {t: i for ids, texts in zip(articles, TEXTS, strict=True)
            for t, i in zip(texts, ids, strict=True)}


def elasticsearch_settings(tmp_path, url: str, **sections):
    return load_settings(data_dir=tmp_path, vectors={"backend": "elasticsearch"},
                         index={"url": url, "compatible_media_types": False,
                                "prefix": f"t{uuid.uuid4().hex[:12]}"}, **sections)


@pytest.mark.within_story
def test_embed_keeps_the_vectors_in_elasticsearch_when_asked(tmp_path, opensearch_api_url):
    """vectors.backend = "elasticsearch": the same vectors as the model gives, in the
    cluster of [index] (no files under the data dir), and nothing computed twice."""
    settings = elasticsearch_settings(tmp_path, opensearch_api_url)
    ids = store_a_told_story(settings)
    assert run_stage(settings, "embed") == {"embedded": 4, "vectors": 4, "truncated": 0,
                                            "left_out_no_story": 0}
    stored = stored_vectors(settings, "en")
    embedder = embedder_for(settings.vectors, settings.data_dir, "en")
    texts = [t for texts in TEXTS for t in texts]
    assert stored.model == f"{embedder.name} {embedder.version}"
    assert np.allclose(stored.get([ids[t] for t in texts]), embedder.encode(texts), atol=1e-5)
    assert not vectors_folder(tmp_path, "en").exists()
    assert run_stage(settings, "embed").get("embedded", 0) == 0


@pytest.mark.within_story
def test_a_dense_run_reads_the_vectors_from_elasticsearch(tmp_path, real_elasticsearch_url):
    """With a real Elasticsearch: the dense source finds the rewording that shares no name."""
    settings = elasticsearch_settings(tmp_path, real_elasticsearch_url,
                                      align={"method": "dense", "dense_k": 1,
                                             "min_stored_grade": 0})
    ids = store_a_told_story(settings)
    run_stage(settings, "embed")
    run_stage(settings, "index")
    counts = run_stage(settings, "align")
    assert counts["dense_references"] == 4 and counts["dense_candidates"] >= 2, counts
    stored = stored_vectors(settings, "en")
    (hits,) = stored.search(stored.get([ids[TEXTS[0][0]]]), [ids[t] for t in TEXTS[1]], 1)
    assert hits[0][0] == ids[TEXTS[1][0]]
