"""The dashboard's pure parts: Wilson interval, word diff, CSV cells, safe links."""

from __future__ import annotations

import gc

import pytest

from parawire.dashboard.precision import precision_of, wilson_interval
from parawire.dashboard.review import _cell
from parawire.dashboard.runs import run_view, safe_link
from parawire.dashboard.serving import _frozen
from parawire.dashboard.textdiff import diff_sides, highlighted
from parawire.records import AlignmentRun, CrawlRun


@pytest.mark.parametrize(("right", "total", "low", "high"), [
    (8, 10, 0.4902, 0.9433),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval_matches_published_values(right, total, low, high):
    got_low, got_high = wilson_interval(right, total)
    assert (got_low, got_high) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


def test_precision_is_undefined_until_something_is_labeled():
    empty = precision_of(0, 0)
    assert (empty.estimate, empty.low, empty.high, empty.labeled) == (None, None, None, 0)
    some = precision_of(3, 1)
    assert some.estimate == 0.75 and some.low < 0.75 < some.high and some.labeled == 4
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_diff_marks_words_missing_from_the_other_side():
    left, right = diff_sides("Mayor Rossi approved the budget.", "Rossi signed off the budget.")
    assert [s.text for s in left if s.changed] == ["Mayor", "approved"]
    assert [s.text for s in right if s.changed] == ["signed off"]
    assert "".join(s.text for s in left) == "Mayor Rossi approved the budget."
    same, other = diff_sides("The Budget.", "the budget.")
    assert not any(s.changed for s in same + other)


def test_highlighted_sides_escape_crawled_text_and_mark_what_differs():
    left, right = highlighted("Rossi <b>approved</b> the budget.", "Rossi & Bianchi approved it.")
    assert left == "Rossi <mark>&lt;b&gt;</mark>approved<mark>&lt;/b&gt; the budget</mark>."
    assert right == "Rossi <mark>&amp; Bianchi</mark> approved <mark>it</mark>."


def test_csv_cells_never_start_a_formula_and_links_are_plain_http():
    assert _cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and _cell("-2 dead") == "'-2 dead"
    assert _cell("Rossi won.") == "Rossi won."
    assert safe_link("https://news.test/a") == "https://news.test/a"
    assert safe_link("javascript:alert(1)") is None and safe_link("data:text/html,x") is None


def test_diff_keeps_shared_names_that_moved_as_anchors():
    left, right = diff_sides("Rossi met Bianchi in Milan on Monday.",
                             "On Monday, in Milan, Bianchi talked with Rossi.")
    assert [s.text for s in left if s.changed] == ["met"]
    assert [s.text for s in right if s.changed] == [",", ",", "talked with"]


def test_alignment_counts_read_as_the_funnel_in_pipeline_order():
    run = AlignmentRun(id=1, parameters={}, status="finished", counts={
        "pairs": 5, "above_beta": 40, "candidates": 90, "references": 10, "near_verbatim": 3,
        "pairs_built": 7, "symmetric_duplicates": 2, "zz_extra": 1})
    view = run_view(run)
    assert list(view.counts) == ["references", "candidates", "above_beta", "near_verbatim",
                                 "pairs_built", "symmetric_duplicates", "pairs", "zz_extra"]


def test_crawl_run_names_its_outlets():
    run = CrawlRun(id=2, parameters={"outlets": ["bbc-news", "ap"]}, status="finished",
                   counts={"stored": 1, "errors/http": 2})
    view = run_view(run)
    assert view.outlets == ["bbc-news", "ap"] and view.errors == {"http": 2}


def test_the_served_app_leaves_what_the_process_holds_to_no_collection():
    """`parawire serve` freezes the objects alive when it starts (imports, the app), so a
    full collection never walks them while requests wait."""
    before = gc.get_freeze_count()
    app = object()
    try:
        assert _frozen(app) is app  # type: ignore[arg-type]
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()
