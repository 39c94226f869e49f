"""Would a cross-encoder lift the pair model? A probe, not a shipped part.

    nice -n 10 .venv/bin/python bench/cross_encoder_probe.py [--epochs 2]

MiniLM (the packaged all-MiniLM-L6-v2 weights) is fine-tuned as a cross-encoder on MSRP
train (paraphrase or not; kept in bench/.cache/). Its score of each dev-gold pair, read
both ways round (`cross_a`: a then b; `cross_b`: b then a), is added to the pair model's
features. Two pair models are fitted on the dev gold's tune part alone, with and without
those two features, and both are scored on the check part exactly as
bench/pair_model_quality.py scores the shipped model (tune only, so that the cross-encoder,
never trained on the dev gold, is the only difference). MSRP val is scored by the
cross-encoder alone (threshold 0.5) for comparison with the pair model's figures.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from common import SEED_CACHE, SHARED_DATA, report
from cross_encoder_fit import MAX_TOKENS, fine_tune
from pair_model_quality import cached_features

from parawire.aligner.pair_model import MODEL_FEATURES, fit_pair_model
from parawire.nlp.embedders import unpacked_minilm
from parawire.roof.pair_gold import GradedText, read_dev_gold
from parawire.roof.scorer_evaluation import useful_figures
from parawire.roof.scorer_training import read_labelled_pairs

CROSS = ("cross_a", "cross_b")


def train_cross_encoder(folder: Path, pairs: list[tuple[bool, str, str]], epochs: int,
                        out: Path) -> float:
    """Fine-tune a one-logit head on MiniLM over labelled pairs (each also read reversed);
    saves the model to `out`; returns the training seconds."""
    examples = [(a, b, float(label)) for label, a, b in pairs] + \
        [(b, a, float(label)) for label, a, b in pairs]
    started = time.perf_counter()
    tokenizer, model = fine_tune(folder, examples, 1, epochs, "cpu", seed=0)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return time.perf_counter() - started


def cross_scores(folder: Path, pairs: list[tuple[str, str]]) -> list[float]:
    """The cross-encoder's probability for each (first, second) text pair."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    scores: list[float] = []
    with torch.inference_mode():
        for start in range(0, len(pairs), 64):
            chunk = pairs[start:start + 64]
            encoded = tokenizer([a for a, _ in chunk], [b for _, b in chunk], truncation=True,
                                max_length=MAX_TOKENS, padding=True, return_tensors="pt")
            scores += torch.sigmoid(model(**encoded).logits.squeeze(-1)).tolist()
    return scores


def with_cross(folder: Path, pairs: list[GradedText], rows: list[dict[str, float]]
               ) -> list[dict[str, float]]:
    """The rows with the cross-encoder's two readings of each pair added."""
    forward = cross_scores(folder, [(p.text_a, p.text_b) for p in pairs])
    backward = cross_scores(folder, [(p.text_b, p.text_a) for p in pairs])
    return [{**row, "cross_a": f, "cross_b": b}
            for row, f, b in zip(rows, forward, backward, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    folder = SEED_CACHE.parent / f"cross-encoder-msrp-{args.epochs}ep"
    train = read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-train.tsv")
    seconds = None
    if not (folder / "config.json").is_file():
        minilm = unpacked_minilm(SEED_CACHE.parent / "pair-model-data" / "models")
        seconds = round(train_cross_encoder(minilm, train, args.epochs, folder), 1)
    val = read_labelled_pairs(SHARED_DATA / "msrp" / "msr-para-val.tsv")
    val_scores = cross_scores(folder, [(a, b) for _, a, b in val])
    chosen = [label for (label, _, _), s in zip(val, val_scores, strict=True) if s >= 0.5]
    tune = read_dev_gold(SHARED_DATA / "pairs-dev", "tune")
    check = read_dev_gold(SHARED_DATA / "pairs-dev", "check")
    tune_rows = with_cross(folder, tune, cached_features("tune", tune))
    check_rows = with_cross(folder, check, cached_features("check", check))
    results = {}
    for name, features in (("without_cross", MODEL_FEATURES),
                           ("with_cross", (*MODEL_FEATURES, *CROSS))):
        model = fit_pair_model(tune_rows, [p.grade for p in tune], [p.direction for p in tune],
                               [p.weight for p in tune], trained_on="dev gold tune",
                               features=features)
        results[name] = useful_figures(check, check_rows,
                                     [model.grading(row) for row in check_rows])
    report("cross_encoder_probe", {
        "cross_encoder": {"base": "all-MiniLM-L6-v2", "trained_on": f"MSRP train ({len(train)} "
                          "pairs, both orders)", "epochs": args.epochs,
                          "training_s": seconds},
        "msrp_val_cross_encoder_alone": {
            "selected": len(chosen),
            "precision": round(sum(chosen) / len(chosen), 4) if chosen else None,
            "recall": round(sum(chosen) / sum(label for label, _, _ in val), 4)},
        "dev_gold_check_pair_model_fitted_on_tune": results})


if __name__ == "__main__":
    main()
