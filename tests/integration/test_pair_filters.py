"""Pair filters on a real run over the demo articles, each with its count."""

from __future__ import annotations

from datetime import date

from parawire.config import load_settings
from parawire.crawler import store_article
from parawire.records import Article
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.textnorm import content_hash
from tests.factories import store_demo_articles


def _aligned(tmp_path, extra: list[Article] = (), **params):
    settings = load_settings(data_dir=tmp_path, align=params)
    store = store_of(settings)
    store_demo_articles(store)
    for article in extra:
        store_article(store, article)
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    return settings, run_stage(settings, "align")


def test_syndicated_copies_are_skipped_and_counted(tmp_path):
    from parawire.demo import load_articles

    original = next(a for a in load_articles() if "gullhaven" in a.slug)
    text = "BRENNMOUTH (Wire Service) - " + "\n".join(original.paragraphs)
    copy = Article(url="http://syndicate.test/robots", source="syndicate", language="en",
                   title=original.title, text=text, published=date(2026, 3, 2), topic="news",
                   content_hash=content_hash(text))
    settings, run = _aligned(tmp_path, [copy])
    store = store_of(settings)
    assert copy.syndicated_of is not None
    assert run["syndicated"] > 0
    rows = list(store.pair_rows(run["run_id"]))
    assert rows and all(r.input.source != "syndicate" and r.target.source != "syndicate"
                        for r in rows)


def test_length_ratio_and_near_verbatim_thresholds_count_what_they_drop(tmp_path):
    _, loose = _aligned(tmp_path / "loose", min_length_ratio=0.0, max_token_jaccard=1.0)
    _, strict = _aligned(tmp_path / "strict", min_length_ratio=0.85, max_token_jaccard=0.6)
    assert loose.get("length_ratio", 0) == 0 and loose.get("near_verbatim", 0) == 0
    assert strict["length_ratio"] > 0 and strict["near_verbatim"] > 0
    assert strict["pairs_built"] + strict["length_ratio"] + strict["near_verbatim"] == \
        loose["pairs_built"]


def test_exclude_same_outlet_never_pairs_an_outlet_with_itself(tmp_path):
    settings, run = _aligned(tmp_path, exclude_same_outlet=True)
    rows = list(store_of(settings).pair_rows(run["run_id"]))
    assert rows and all(r.input.source != r.target.source for r in rows)
