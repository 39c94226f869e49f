"""A run searches a pair from its sparser side: with align.sparse_min_pn below min_pn, a
sentence with fewer names than min_pn is a reference, and finds its richer partner."""

from __future__ import annotations

from datetime import date

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.textnorm import content_hash

RICHER = ("Carlton Dotson was charged in Waco on Monday with the murder of his former teammate "
          "Patrick Dennehy, police said.")
SPARSER = "Police have charged Dotson with the murder of his teammate Dennehy."
# The paper's gate, where the rule matters; the pair model's grade floor is not under test:
# every graded pair is stored.
PAPER_GATE = {"min_cn": 3, "min_pn": 3, "alpha": 0.7, "beta": 0.7}
SCORER_OFF = {"min_stored_grade": 0}


def _run(tmp_path, **align):
    settings = load_settings(data_dir=tmp_path, align={**PAPER_GATE, **SCORER_OFF, **align})
    store = store_of(settings)
    for source, text in (("outlet-a", RICHER), ("outlet-b", SPARSER)):
        store_article(store, Article(url=f"http://{source}.test/dotson", source=source,
                                     language="en", title="", text=text,
                                     published=date(2026, 3, 2), topic="news",
                                     content_hash=content_hash(text)))
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    run = run_stage(settings, "align")
    return store, run, list(store.pair_rows(run["run_id"]))


def test_the_paper_rule_never_searches_the_pair(tmp_path):
    _, run, rows = _run(tmp_path, sparse_min_pn=3)
    assert run["references_selected"] == 1 and run["candidates"] == 0 and rows == []


def test_a_sparse_reference_finds_its_richer_partner(tmp_path):
    store, run, rows = _run(tmp_path, sparse_min_pn=2)
    assert run["references_selected"] == 2 and run["candidates"] == 1
    assert [(row.input.text, row.target.text) for row in rows] == [(RICHER, SPARSER)]
    sparse = store.sentences_by_id([rows[0].pair.target_sentence_id])
    assert sorted(next(iter(sparse.values())).pn) == ["dennehy", "dotson"]

