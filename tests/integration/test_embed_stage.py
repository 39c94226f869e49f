"""The embed stage on real sentences: one vector per sentence, computed once (a second run
embeds only what is new), empty texts counted, another model's vectors recomputed, and an
alignment run with the dense source finding a reworded partner that shares no name."""

from __future__ import annotations

from datetime import date

import numpy as np

from parawire.config import load_settings
from parawire.nlp import VectorFiles, vectors_folder
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import make_sentence, store_annotated_article

TEXTS = [
    ["The Pentagon said on Monday it would send more troops to the region.",
     "Storm knocks out power to thousands across the Gulf Coast overnight."],
    ["The Defense Department announced additional soldiers will deploy to the area.",
     "A local bakery won a prize for its sourdough bread this weekend."],
]


def test_embed_once_then_only_the_new_sentences(tmp_path, monkeypatch):
    settings = load_settings(data_dir=tmp_path)
    store = store_of(settings)
    for n, texts in enumerate(TEXTS):
        store_annotated_article(store, f"http://news.test/{n}",
                                [make_sentence(0, 0, [], ["word"], text=t) for t in texts],
                                source=f"outlet-{n}", published=date(2026, 3, 2))
    first = run_stage(settings, "embed")
    assert first["embedded"] == 4 and first["vectors"] == 4
    files = VectorFiles.existing(vectors_folder(tmp_path, "en"))
    before = np.array(files.vectors)
    store_annotated_article(store, "http://news.test/late",
                            [make_sentence(0, 0, [], ["word"], text=TEXTS[0][0]),
                             make_sentence(0, 0, [], ["word"], text="   ")],
                            source="outlet-9", published=date(2026, 3, 3))
    reads_after = []
    reading = store.iter_sentences
    monkeypatch.setattr(store, "iter_sentences",
                        lambda after_id=0: reads_after.append(after_id) or reading(after_id))
    second = run_stage(settings, "embed")
    assert second["embedded"] == 1 and second["skipped_empty"] == 1 and second["vectors"] == 5
    assert reads_after == [files.last_id()]  # only what came after the last vector is read
    monkeypatch.setattr(store, "iter_sentences", reading)
    files = VectorFiles.existing(vectors_folder(tmp_path, "en"))
    assert np.array_equal(files.vectors[:4], before)
    assert np.array_equal(files.vectors[4], files.vectors[0])  # equal texts, equal vectors
    assert run_stage(settings, "embed", redo=True)["embedded"] == 5

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
                                [make_sentence(0, 0, [], ["word"], text=english[0])],
                                source=f"outlet-{n}", published=date(2026, 3, 2))
        store_annotated_article(store, f"http://news.test/fr-{n}",
                                [make_sentence(0, 0, [], ["mot"], text=french, language="fr")],
                                source=f"outlet-{n}", published=date(2026, 3, 2), language="fr")
    assert run_stage(settings, "embed")["embedded"] == 4
    run_stage(settings, "index")
    counts = run_stage(settings, "align")
    assert counts["dense_references"] == 4 and counts.get("dense_no_vector", 0) == 0, counts
    assert counts["dense_candidates"] == 4, counts  # each one's rewording, in its language
