"""The semantic check: real multilingual embeddings, and its effect on a run."""

from parawire.aligner.semantic import cosine_similarities
from parawire.config import load_settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_demo_articles


def test_paraphrases_are_closer_than_unrelated_sentences_across_languages():
    same, other, french = cosine_similarities([
        ("The council approved the tram budget on Tuesday.",
         "On Tuesday the council backed the budget for the tram."),
        ("The council approved the tram budget on Tuesday.",
         "A leatherback turtle was rescued on the beach."),
        ("The council approved the tram budget on Tuesday.",
         "Mardi, le conseil a approuvé le budget du tramway."),
    ])
    assert same > 0.8 and french > 0.6
    assert other < 0.4


# Every graded pair reaches the semantic check.
SCORER_OFF = {"min_stored_grade": 0}


def test_a_strict_semantic_threshold_removes_pairs_and_counts_them(tmp_path):
    settings = load_settings(data_dir=tmp_path, align=SCORER_OFF)
    store_demo_articles(store_of(settings))
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    plain = run_stage(settings, "align")
    strict = run_stage(load_settings(data_dir=tmp_path,
                                     align={**SCORER_OFF, "min_semantic_similarity": 0.9}),
                       "align")
    assert strict["run_id"] != plain["run_id"]
    assert strict["semantic"] > 0
    assert strict["pairs"] < plain["pairs"]
    assert strict["pairs_built"] + strict["semantic"] == plain["pairs_built"]
