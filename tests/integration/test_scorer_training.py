"""`parawire scorer train`: on the operator's review labels of a real run, and bad input."""

from __future__ import annotations

from click.testing import CliRunner

from parawire.aligner import load_pair_model
from parawire.config import load_settings
from parawire.records import Direction
from parawire.roof.cli import main
from parawire.roof.pipeline import run_stage
from parawire.roof.scorer_training import train_scorer
from parawire.store import store_of
from tests.factories import store_demo_articles


def test_review_labels_retrain_the_pair_model(tmp_path):
    # every graded pair the run finds is stored (and so can be reviewed)
    settings = load_settings(data_dir=tmp_path, align={"min_stored_grade": 0})
    store = store_of(settings)
    store_demo_articles(store)
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    run_id = run_stage(settings, "align")["run_id"]
    pair_ids = sorted(store.sample_unlabeled_pairs(run_id, 1000))
    assert len(pair_ids) >= 10
    # the operator finds the pairs the shipped model grades best right, the others wrong
    shipped = load_pair_model()
    stored = dict(zip(pair_ids, store.pairs(run_id), strict=True))  # both in id order
    useful = {pid: sum(pair.grade_probabilities[3:]) for pid, pair in stored.items()}
    ranked = sorted(pair_ids, key=lambda pid: -useful[pid])
    half = len(ranked) // 2
    for position, pid in enumerate(ranked):
        assert store.label_pair(run_id, pid, position < half)

    result = train_scorer(settings, gold=None, labels=None, reviews=True, run_id=run_id,
                          out=tmp_path / "mine.json", language="en")

    retrained = load_pair_model(tmp_path / "mine.json")
    assert result["version"] == retrained.version != shipped.version
    assert retrained.trained_on == f"review labels ({len(ranked)} pairs)"
    assert result["pairs"] == len(ranked)
    # right labels train grade 4, wrong ones grade 2: the pairs labelled right now grade higher
    grades = {pid: retrained.grading(pair.features).grade for pid, pair in stored.items()}
    assert sum(grades[pid] == 4 for pid in ranked[:half]) > \
        sum(grades[pid] == 4 for pid in ranked[half:])

    # graded labels train their grade and direction: the input covers the target (side a)
    for position, pid in enumerate(ranked):
        graded = (3, Direction.A_COVERS_B) if position < half else (0, Direction.BOTH_ADD)
        assert store.label_pair(run_id, pid, position < half, "", *graded)
    train_scorer(settings, gold=None, labels=None, reviews=True, run_id=run_id,
                 out=tmp_path / "graded.json", language="en")
    graded_model = load_pair_model(tmp_path / "graded.json")
    readings = {pid: graded_model.grading(pair.features) for pid, pair in stored.items()}
    covering = [readings[pid].grade == 3 and readings[pid].direction == Direction.A_COVERS_B
                for pid in ranked]
    assert sum(covering[:half]) > sum(covering[half:])


def test_a_bad_labels_file_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "labels.tsv"
    bad.write_text("Quality\t#1 String\t#2 String\nyes\tA text.\tAnother text.\n")
    result = CliRunner().invoke(main, ["scorer", "train", "--labels", str(bad)],
                                env={"PARAWIRE_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 1
    assert f"{bad}, line 2: expected a 0/1 label and two texts" in result.output
