"""Would a cross-encoder trained on graded, directional pairs lift the pair model? A probe,
not a shipped part.

    .venv/bin/python bench/cross_encoder_graded.py prepare
    python3 bench/cross_encoder_graded.py train [--epochs 4]     # torch + transformers only
    .venv/bin/python bench/cross_encoder_graded.py evaluate

`prepare` writes bench/.cache/ce-graded/: the dev gold's tune and check pairs with their
classes (the pair model's: 0, 1, 2, 3a, 3b, 4) and tune's stories, MSRP train's pairs, and
a half-precision copy of the encoder to start from: the MSRP cross-encoder of
bench/cross_encoder_probe.py where one was trained, else MiniLM itself, which `train` then
first fine-tunes on MSRP train as the probe does (`--msrp-epochs`, 1). `train` needs nothing
of parawire (bench/cross_encoder_fit.py), so that it can run where a GPU is: a six-class
head on that encoder is fine-tuned on tune pairs (each read both ways, 3a and 3b swapped),
once per fold of tune's stories (`--folds`, 8) to grade the held-out stories, and once on all
of tune to grade check; it writes probabilities.json beside the pairs. `evaluate` scores, on
check as bench/pair_model_quality.py does: the cross-encoder alone (its most likely
class), the shipped recipe (MODEL_FEATURES, tune only), and that recipe with the
cross-encoder's class probabilities as features (fitted on tune's out-of-fold ones).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cross_encoder_fit import MAX_TOKENS, fine_tune

FOLDER = Path(__file__).with_name(".cache") / "ce-graded"
CLASSES = ("0", "1", "2", "3a", "3b", "4")
FLIP = {"3a": "3b", "3b": "3a"}
CROSS = ("cross_0", "cross_1", "cross_2", "cross_covers_a", "cross_covers_b", "cross_4")


def prepare() -> None:
    """Write the pairs and the starting encoder (half precision, to travel light)."""
    import torch
    from common import SEED_CACHE, SHARED_DATA
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from parawire.aligner.pair_model import training_class
    from parawire.nlp.embedders import unpacked_minilm
    from parawire.roof.pair_gold import read_dev_gold
    from parawire.roof.scorer_training import read_labelled_pairs

    FOLDER.mkdir(parents=True, exist_ok=True)
    data = {part: [{"a": p.text_a, "b": p.text_b, "class": training_class(p.grade, p.direction),
                    "story": p.group} for p in read_dev_gold(SHARED_DATA / "pairs-dev", part)]
            for part in ("tune", "check")}
    data["msrp_train"] = [{"a": a, "b": b, "label": int(label)} for label, a, b in
                          read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-train.tsv")]
    (FOLDER / "pairs.json").write_text(json.dumps(data))
    trained = FOLDER.parent / "cross-encoder-msrp-1ep"
    source, target = ((trained, FOLDER / "start") if (trained / "config.json").is_file() else
                      (unpacked_minilm(SEED_CACHE.parent / "pair-model-data" / "models"),
                       FOLDER / "base"))
    model = AutoModelForSequenceClassification.from_pretrained(source).to(torch.float16)
    model.save_pretrained(target)
    AutoTokenizer.from_pretrained(source).save_pretrained(target)


def _graded_examples(pairs: list[dict]) -> list[tuple[str, str, float]]:
    """Each pair read both ways, its class's index as the label (3a and 3b swapped)."""
    return [(p["a"], p["b"], CLASSES.index(p["class"])) for p in pairs] + \
        [(p["b"], p["a"], CLASSES.index(FLIP.get(p["class"], p["class"]))) for p in pairs]


def _probabilities(tokenizer, model, pairs: list[dict], device: str) -> list[list[float]]:
    """Each pair's class probabilities, the mean of its two readings (3a and 3b swapped
    in the reversed one)."""
    import torch

    def read(texts: list[tuple[str, str]]) -> list[list[float]]:
        out: list[list[float]] = []
        with torch.inference_mode():
            for start in range(0, len(texts), 64):
                chunk = texts[start:start + 64]
                encoded = tokenizer([a for a, _ in chunk], [b for _, b in chunk],
                                    truncation=True, max_length=MAX_TOKENS, padding=True,
                                    return_tensors="pt").to(device)
                out += torch.softmax(model(**encoded).logits.float(), dim=-1).tolist()
        return out

    swap = [CLASSES.index(FLIP.get(c, c)) for c in CLASSES]
    forward = read([(p["a"], p["b"]) for p in pairs])
    backward = read([(p["b"], p["a"]) for p in pairs])
    return [[(f[k] + b[swap[k]]) / 2 for k in range(len(CLASSES))]
            for f, b in zip(forward, backward, strict=True)]


def train(epochs: int, folds: int, limit: int, msrp_epochs: int) -> None:
    """Out-of-fold probabilities for tune (none with folds = 0), all-of-tune probabilities
    for check (the first `limit` pairs of each, MSRP's too, for a trial run, where limit > 0); the MSRP
    cross-encoder first, where `prepare` found none."""
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = json.loads((FOLDER / "pairs.json").read_text())
    tune, check, msrp_pairs = data["tune"], data["check"], data["msrp_train"]
    if limit:
        tune, check, msrp_pairs = tune[:limit], check[:limit], msrp_pairs[:limit]
    started = time.perf_counter()
    if not (FOLDER / "start" / "config.json").is_file():
        msrp = [(p["a"], p["b"], float(p["label"])) for p in msrp_pairs]
        tokenizer, model = fine_tune(FOLDER / "base", msrp + [(b, a, y) for a, b, y in msrp],
                                     1, msrp_epochs, device, seed=0)
        model.save_pretrained(FOLDER / "start")
        tokenizer.save_pretrained(FOLDER / "start")
        print(f"MSRP cross-encoder: {time.perf_counter() - started:.0f} s", flush=True)
    stories = sorted({p["story"] for p in tune})
    fold_of = {story: k % max(folds, 1) for k, story in enumerate(stories)}
    oof: list[list[float] | None] = [None] * len(tune)
    for fold in range(folds):
        held = [i for i, p in enumerate(tune) if fold_of[p["story"]] == fold]
        kept = [p for p in tune if fold_of[p["story"]] != fold]
        tokenizer, model = fine_tune(FOLDER / "start", _graded_examples(kept), len(CLASSES),
                                     epochs, device, seed=fold)
        for i, row in zip(held, _probabilities(tokenizer, model, [tune[i] for i in held],
                                               device), strict=True):
            oof[i] = row
        print(f"fold {fold}: {time.perf_counter() - started:.0f} s", flush=True)
    tokenizer, model = fine_tune(FOLDER / "start", _graded_examples(tune), len(CLASSES), epochs,
                                 device, seed=folds)
    result = {"device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
              "epochs": epochs, "folds": folds, "seconds": round(time.perf_counter() - started, 1),
              "tune_out_of_fold": oof, "check": _probabilities(tokenizer, model, check, device)}
    (FOLDER / "probabilities.json").write_text(json.dumps(result))
    print(f"done in {result['seconds']} s on {result['device']}")


def evaluate() -> None:
    """Check figures: the cross-encoder alone, the shipped recipe, and both together."""
    from common import SHARED_DATA, report
    from pair_model_quality import cached_features

    from parawire.aligner import MODEL_FEATURES, Grading, fit_pair_model
    from parawire.records import Direction
    from parawire.roof.pair_gold import read_dev_gold
    from parawire.roof.scorer_evaluation import useful_figures

    result = json.loads((FOLDER / "probabilities.json").read_text())
    tune = read_dev_gold(SHARED_DATA / "pairs-dev", "tune")
    check = read_dev_gold(SHARED_DATA / "pairs-dev", "check")

    def with_cross(rows: list[dict[str, float]], probabilities: list[list[float]]
                   ) -> list[dict[str, float]]:
        # named so that the pair model's twin swap (…_a against …_b) swaps 3a and 3b
        return [{**row, **dict(zip(CROSS, probs, strict=True))}
                for row, probs in zip(rows, probabilities, strict=True)]

    def alone(probs: list[float]) -> Grading:
        p = dict(zip(CLASSES, probs, strict=True))
        grades = (p["0"], p["1"], p["2"], p["3a"] + p["3b"], p["4"], 0.0)
        grade = max(range(6), key=lambda g: grades[g])
        direction = (Direction.EQUIVALENT if grade >= 4 else Direction.BOTH_ADD if grade < 3
                     else Direction.A_COVERS_B if p["3a"] >= p["3b"] else Direction.B_COVERS_A)
        return Grading(grade, direction, grades)

    check_rows = with_cross(cached_features("check", check), result["check"])
    figures = {"cross_encoder_alone": useful_figures(check, check_rows,
                                                   [alone(p) for p in result["check"]])}
    recipes: list[tuple[str, tuple[str, ...]]] = [("model_features", MODEL_FEATURES)]
    if result["folds"]:
        recipes.append(("model_features_and_cross", (*MODEL_FEATURES, *CROSS[1:])))
        tune_rows = with_cross(cached_features("tune", tune), result["tune_out_of_fold"])
    else:
        tune_rows = cached_features("tune", tune)
    for name, features in recipes:
        model = fit_pair_model(tune_rows, [p.grade for p in tune], [p.direction for p in tune],
                               [1.0] * len(tune), trained_on="tune", features=features)
        figures[name] = useful_figures(check, check_rows, [model.grading(r) for r in check_rows])
    report("cross_encoder_graded", {
        "trained": {k: result[k] for k in ("device", "epochs", "folds", "seconds")},
        "start": "all-MiniLM-L6-v2 fine-tuned on MSRP train (bench/cross_encoder_probe.py)",
        "dev_gold_check": figures})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("prepare", "train", "evaluate"))
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--folds", type=int, default=8,
                        help="Folds of tune's stories for out-of-fold probabilities (0: none).")
    parser.add_argument("--limit", type=int, default=0, help="Pairs of each part (trial).")
    parser.add_argument("--msrp-epochs", type=int, default=1,
                        help="Epochs on MSRP train, where prepare found no MSRP cross-encoder.")
    args = parser.parse_args()
    if args.action == "prepare":
        prepare()
    elif args.action == "train":
        train(args.epochs, args.folds, args.limit, args.msrp_epochs)
    else:
        evaluate()


if __name__ == "__main__":
    main()
