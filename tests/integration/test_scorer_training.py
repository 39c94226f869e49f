"""`parawire scorer train`: on the operator's review labels of a real run, and bad input."""

from __future__ import annotations

from click.testing import CliRunner

from parawire.aligner import load_scorer
from parawire.config import load_settings
from parawire.roof.cli import main
from parawire.roof.pipeline import run_stage
from parawire.roof.scorer_training import train_scorer
from parawire.store import store_of
from tests.factories import store_demo_articles


def test_review_labels_retrain_the_scorer_and_report_its_precision(tmp_path):
    # every pair the run finds is stored (and so can be reviewed)
    settings = load_settings(data_dir=tmp_path, align={"min_probability": 0.0})
    store = store_of(settings)
    store_demo_articles(store)
    run_stage(settings, "annotate")
    run_stage(settings, "index")
    run_id = run_stage(settings, "align")["run_id"]
    pair_ids = sorted(store.sample_unlabeled_pairs(run_id, 1000))
    assert len(pair_ids) >= 10
    # the operator finds the pairs the shipped scorer likes best right, the others wrong
    shipped = load_scorer()
    probability = {pid: shipped.probability(signals) for pid, signals in zip(
        pair_ids, (p.features for p in store.pairs(run_id)), strict=True)}
    ranked = sorted(pair_ids, key=lambda pid: -probability[pid])
    half = len(ranked) // 2
    for position, pid in enumerate(ranked):
        assert store.label_pair(run_id, pid, position < half)

    result = train_scorer(settings, labels=None, reviews=True, run_id=run_id,
                          out=tmp_path / "mine.json", target_precision=0.9, language="en")

    retrained = load_scorer(tmp_path / "mine.json")
    assert result["version"] == retrained.version != shipped.version
    assert retrained.trained_on == f"review labels ({len(ranked)} pairs)"
    assert result["pairs"] == len(ranked) and result["positives"] == half
    reviews = result["reviews"]
    assert reviews["labelled"] == len(ranked)
    assert reviews["kept_by_current_scorer"] == len(ranked)  # min_probability 0 keeps all
    assert reviews["precision_of_kept"] == round(half / len(ranked), 4)


def test_a_bad_labels_file_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "labels.tsv"
    bad.write_text("Quality\t#1 String\t#2 String\nyes\tA text.\tAnother text.\n")
    result = CliRunner().invoke(main, ["scorer", "train", "--labels", str(bad)],
                                env={"PARAWIRE_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 1
    assert f"{bad}, line 2: expected a 0/1 label and two texts" in result.output
