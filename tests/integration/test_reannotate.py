"""`parawire annotate --redo` recomputes every stored article's features, keeping the
sentence ids that pairs and the index refer to."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import schema, store_of
from parawire.textnorm import content_hash

# MSRP sentences (train split), as one article.
TEXT = ("A former teammate, Carlton Dotson, has been charged with the murder.\n\n"
        "Dotson was arrested Monday in his native Maryland and charged with murder.")


def test_redo_recomputes_entity_keys_and_keeps_sentence_ids(tmp_path):
    settings = load_settings(data_dir=tmp_path)
    store = store_of(settings)
    store_article(store, Article(url="http://wire.test/1", source="wire", language="en",
                                 title="Teammate charged", text=TEXT, published=date(2003, 7, 24),
                                 content_hash=content_hash(TEXT)))
    assert run_stage(settings, "annotate")["articles"] == 1
    before = {s.id: s.entity_keys for batch in store.iter_sentences() for s in batch}
    # A store annotated before entity keys existed: revision 0005 copied the surface names.
    with store.engine.begin() as conn:
        conn.execute(schema.sentences.update().values(entity_keys=schema.sentences.c.proper_nouns))
    stale = {s.id: s.entity_keys for batch in store.iter_sentences() for s in batch}
    assert stale != before and any("carlton dotson" in keys for keys in stale.values())

    counts = run_stage(settings, "annotate", redo=True)

    assert counts["reannotated"] == 1 and counts["articles"] == 1
    after = {s.id: s.entity_keys for batch in store.iter_sentences() for s in batch}
    assert after == before  # the same ids, the keys recomputed
    assert all("dotson" in keys for keys in after.values())
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.articles)
                            .where(schema.articles.c.annotated.is_(False))).scalar() == 0
    assert run_stage(settings, "annotate") == {}  # nothing left to annotate


def test_redo_gives_a_store_annotated_before_titles_were_sentences_its_titles(tmp_path):
    settings = load_settings(data_dir=tmp_path)
    store = store_of(settings)
    store_article(store, Article(url="http://wire.test/2", source="wire", language="en",
                                 title="Former teammate Carlton Dotson charged with murder",
                                 text=TEXT, published=date(2003, 7, 24),
                                 content_hash=content_hash(TEXT)))
    run_stage(settings, "annotate")
    # Such a store: the text's sentences only.
    with store.engine.begin() as conn:
        conn.execute(schema.sentences.delete().where(schema.sentences.c.position == -1))
    text_ids = {s.position: s.id for batch in store.iter_sentences() for s in batch}
    assert sorted(text_ids) == [0, 1]

    run_stage(settings, "annotate", redo=True)

    after = {s.position: s for batch in store.iter_sentences() for s in batch}
    assert {p: s.id for p, s in after.items() if p >= 0} == text_ids  # ids kept
    title = after[-1]
    assert title.is_title and title.text == "Former teammate Carlton Dotson charged with murder"
    assert "dotson" in title.entity_keys
