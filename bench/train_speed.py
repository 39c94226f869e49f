"""Trainer speed on this machine: training tokens/s and decoding sentences/s.

    .venv/bin/python bench/train_speed.py [--threads 1]

Synthetic pairs (random words of a 5,000-word vocabulary, 15–30 tokens, the target a
shuffled copy of the source with a few words replaced) train each configuration for two
epochs; tokens/s is source + target tokens per second of the second epoch. Decoding then
paraphrases 64 inputs greedily and with beams of 4 and 10. Runs on CUDA when present.
The machine's load average is recorded before and after: other work on the same cores
slows every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import tempfile
import time
from pathlib import Path

import torch
from common import report

from parawire.trainer.corpus import tokenize
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.inference import Paraphraser
from parawire.trainer.training import TrainConfig, train

CONFIGS = {"tiny": {"embedding": 32, "hidden": 64}, "small": {"embedding": 128, "hidden": 256}}


def synthetic_corpus(folder: Path, pairs: int, seed: int = 0) -> list[str]:
    """Write train/valid/test splits of synthetic pairs; returns the test inputs."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]

    def pair() -> dict[str, str]:
        source = rng.choices(words, k=rng.randint(15, 30))
        target = source[:]
        rng.shuffle(target)
        for index in rng.sample(range(len(target)), 3):
            target[index] = rng.choice(words)
        return {"input": " ".join(source), "target": " ".join(target)}

    splits = {"train": pairs, "valid": 64, "test": 64}
    folder.mkdir(parents=True, exist_ok=True)
    tests: list[str] = []
    for name, count in splits.items():
        rows = [pair() for _ in range(count)]
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        tests = [r["input"] for r in rows]
    return tests


def measure(corpus: Path, inputs: list[str], name: str, threads: int) -> dict:
    """Train one configuration for two epochs, then decode; speeds of both."""
    out = Path(tempfile.mkdtemp(prefix=f"train-speed-{name}-"))
    config = TrainConfig(kind="pointer", max_epochs=2, patience=10, threads=threads,
                         batch_size=32, **CONFIGS[name])
    summary = train(corpus, out, config)
    epochs = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    paraphraser = Paraphraser(out / "last.pt", threads=threads)
    sources = [tokenize(text) for text in inputs]
    decoding = {}
    for beam in (1, 4, 10):
        started = time.perf_counter()
        outputs = paraphraser.generate(sources, DecodeOptions(beam=beam, max_len=40))
        decoding[f"beam_{beam}_sentences_per_s"] = round(len(inputs) / (time.perf_counter() - started), 1)
        # Speed depends on how long the outputs are, so their mean length goes with it.
        decoding[f"beam_{beam}_mean_output_tokens"] = round(
            sum(len(o) for o in outputs) / len(outputs), 1)
    return {"sizes": CONFIGS[name], "parameters": sum(p.numel() for p in paraphraser.model.parameters()),
            "vocab": summary["vocab_size"], "train_tokens_per_epoch": epochs[-1]["train_tokens"],
            "train_tokens_per_s": epochs[-1]["tokens_per_s"], **decoding}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for torch.")
    parser.add_argument("--pairs", type=int, default=512, help="Training pairs.")
    args = parser.parse_args()
    corpus = Path(tempfile.mkdtemp(prefix="train-speed-corpus-"))
    inputs = synthetic_corpus(corpus, args.pairs)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    load_before = os.getloadavg()
    configs = {name: measure(corpus, inputs, name, args.threads) for name in CONFIGS}
    report("train_speed", {
        "device": device if device == "cuda" else f"cpu ({args.threads} threads; no GPU here)",
        "machine": platform.processor() or platform.machine(), "torch": torch.__version__,
        "training_pairs": args.pairs, "batch_size": 32, "model": "pointer",
        "cpu_cores": os.cpu_count(), "load_average_1min_before_after": [
            round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "configs": configs,
    })


if __name__ == "__main__":
    main()
