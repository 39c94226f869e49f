"""Pair model quality on the dev gold's check part and MSRP val (the shipped model is fitted
on the dev gold's tune part; nothing here is tuned on check or val).

    nice -n 10 .venv/bin/python bench/pair_model_quality.py [--model FILE]

Dev gold, check part: every cross-article pair of a story's lead sentences, and of its
titles, is a candidate (an unlisted pair is grade 0). A pair is useful when its gold grade
is >= 4, or 3 with the input (as the run orients it) being the covering side; a pair is
selected when the model grades it >= 3 (and, in the figures "target_covered", when the input
also states export.min_target_coverage of the target's content words). The direction
accuracy is over gold grade-3 pairs selected: the share whose input is the covering side.
Reports precision and recall of useful pairs, recall of grade >= 4, the grade confusion
matrix, the direction accuracy on gold grade-3 pairs the model selects
(parawire.roof.scorer_evaluation; `parawire scorer evaluate` reports them with the floor).
MSRP val: a pair predicted a paraphrase when P(grade >= 4) reaches
scorer.equivalent_probability (set on MSRP train), and when graded >= 4 or >= 3. Features
are computed once and cached in bench/.cache/.
Beside the check figures: main's old path (filters and binary scorer) on the same candidates,
scored the same way, as bench/old_path_quality.py measured it at commit b97e1f4 (its result
kept in bench/baselines/; the script and the old code it ran were removed after it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from common import SEED_CACHE, SHARED_DATA, report

from parawire.aligner import FEATURES, load_pair_model
from parawire.config import ExportConfig, load_settings
from parawire.roof.pair_gold import GradedText, binary_as_graded, read_dev_gold
from parawire.roof.scorer_evaluation import binary_figures, useful_figures
from parawire.roof.scorer_training import graded_features, read_labelled_pairs


def cached_features(name: str, pairs: list[GradedText]) -> list[dict[str, float]]:
    """The pairs' features, computed once (annotation and embedding) and kept in .cache
    under a key of the feature names and the English embedder, so that a new feature or
    another model (`PARAWIRE_VECTORS__MODELS`) computes them again."""
    settings = load_settings(data_dir=SEED_CACHE.parent / "pair-model-data")
    model = settings.vectors.models["en"]
    key = hashlib.sha256(" ".join(FEATURES).encode()).hexdigest()[:8]
    cache = SEED_CACHE.with_name(f"pair_features_{name}_{key}_{model}.json")
    if cache.is_file():
        return json.loads(cache.read_text())
    rows = graded_features(settings, pairs, "en")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(rows))
    return rows


def old_path() -> dict | None:
    """The old path's check figures and the main commit they were measured on (None if the
    result is absent)."""
    path = Path(__file__).with_name("baselines") / "old_path_quality.json"
    if not path.is_file():
        return None
    old = json.loads(path.read_text())
    return {"code_from_main_commit": old["code_from_main_commit"], **old["dev_gold_check"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="", help="Pair model file [default: shipped].")
    args = parser.parse_args()
    model = load_pair_model(args.model)
    check = read_dev_gold(SHARED_DATA / "pairs-dev", "check")
    rows = cached_features("check", check)
    val = binary_as_graded(read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-val.tsv"), 1.0)
    val_rows = cached_features("msrp_val", val)
    report("pair_model_quality", {
        "model": model.version, "trained_on": model.trained_on,
        "dev_gold_check": useful_figures(check, rows, [model.grading(row) for row in rows]),
        "dev_gold_check_target_covered": useful_figures(
            check, rows, [model.grading(row) for row in rows],
            min_target_coverage=ExportConfig().min_target_coverage),
        "dev_gold_check_old_path": old_path(),
        "msrp_val": binary_figures(val, [model.grading(row) for row in val_rows],
                                   load_settings().scorer.equivalent_probability)})


if __name__ == "__main__":
    main()
