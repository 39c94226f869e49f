"""Pair filters on a real run over the demo articles, each with its count."""

from __future__ import annotations

from datetime import date

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.textnorm import content_hash, token_jaccard, words
from tests.factories import store_demo_articles

# The scorer and the filters after it keep every pair.
SCORER_OFF = {"min_probability": 0.0, "max_quote_share": 1.0, "max_novel_share": 1.0,
              "max_added_words": 1000, "drop_mismatches": False}


def _aligned(tmp_path, extra: list[Article] = (), **params):
    settings = load_settings(data_dir=tmp_path, align=params)
    store = store_of(settings)
    store_demo_articles(store)
    for article in extra:
        store_article(store, article)
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    return settings, run_stage(settings, "align")


def test_syndicated_copies_are_skipped_and_counted_unless_their_text_differs(tmp_path):
    from parawire.demo import load_articles

    original = next(a for a in load_articles() if "gullhaven" in a.slug)
    # the wire's copy adds a word to one sentence: that sentence is near-verbatim
    paragraphs = [p.replace("planned to produce", "planned to start to produce")
                  for p in original.paragraphs]
    text = "BRENNMOUTH (Wire Service) - " + "\n".join(paragraphs)
    copy = Article(url="http://syndicate.test/robots", source="syndicate", language="en",
                   title=original.title, text=text, published=date(2026, 3, 2), topic="news",
                   content_hash=content_hash(text))
    settings, run = _aligned(tmp_path, [copy])
    store = store_of(settings)
    assert copy.syndicated_of is not None
    assert run["syndicated"] > 0
    rows = list(store.pair_rows(run["run_id"]))
    assert rows
    for row in rows:  # a syndicated copy's sentence pairs only where its text differs
        if "syndicate" in (row.input.source, row.target.source):
            assert token_jaccard(row.input.text, row.target.text) < 0.9
    # the copy's unchanged sentences pair with the same partners as the original's: the run
    # counts each text pair once (texts normalised, either order)
    texts = {frozenset((" ".join(words(r.input.text)), " ".join(words(r.target.text))))
             for r in rows}
    assert run["distinct_text_pairs"] == len(texts) < run["pairs"] == len(rows)


def test_length_ratio_and_near_verbatim_thresholds_count_what_they_drop(tmp_path):
    _, loose = _aligned(tmp_path / "loose", min_length_ratio=0.0, max_token_jaccard=1.0,
                        min_word_edits=0, min_edit_share=0.0, **SCORER_OFF)
    _, strict = _aligned(tmp_path / "strict", min_length_ratio=0.85, max_token_jaccard=0.6,
                         **SCORER_OFF)
    assert loose.get("length_ratio", 0) == 0 and loose.get("near_verbatim", 0) == 0
    assert strict["length_ratio"] > 0 and strict["near_verbatim"] > 0
    assert strict["pairs_built"] + strict["length_ratio"] + strict["near_verbatim"] == \
        loose["pairs_built"]


def test_exclude_same_outlet_never_pairs_an_outlet_with_itself(tmp_path):
    settings, run = _aligned(tmp_path, exclude_same_outlet=True)
    rows = list(store_of(settings).pair_rows(run["run_id"]))
    assert rows and all(r.input.source != r.target.source for r in rows)


def test_every_stored_pair_has_its_probability_and_signals(tmp_path):
    settings, kept = _aligned(tmp_path / "kept")
    _, every = _aligned(tmp_path / "every", **SCORER_OFF)
    rows = list(store_of(settings).pair_rows(kept["run_id"]))
    assert rows and all(r.pair.probability >= settings.align.min_probability for r in rows)
    assert all(set(r.pair.features) >= {"cosine", "bm25", "novel_max"} for r in rows)
    dropped = sum(kept.get(reason, 0) for reason in (
        "below_probability", "quote_copy", "partial", "number_mismatch", "date_mismatch",
        "entity_mismatch"))
    assert dropped > 0 and kept["pairs_built"] + dropped == every["pairs_built"]
    run = store_of(settings).alignment_run(kept["run_id"])
    assert run.parameters["scorer_version"].startswith("lr-")
