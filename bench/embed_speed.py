"""English embedding speed: MiniLM's ONNX export through onnxruntime, fp32 ("minilm", the
default on a CPU) and with int8 weights ("minilm-onnx"), as ratios to plain
sentence-transformers `model.encode` on torch ("minilm-torch"), in the same run, on the
same MSRP sentences (train), each timed twice after a warm-up, best of the two; each one's
cosine to the torch vectors, how far a vector moves when its sentence is encoded alone
rather than in the batch, and peak RSS.

    nice .venv/bin/python bench/embed_speed.py [--sentences 2000]

The machine is shared: absolute rates are pessimistic, the ratios are what to read."""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from common import read_msrp, report

from parawire.config import VectorsConfig
from parawire.nlp import embedder_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=2000)
    args = parser.parse_args()
    texts = list(dict.fromkeys(t for r in read_msrp("train") for t in (r[3], r[4])))
    texts = texts[:args.sentences]
    cache = Path(tempfile.gettempdir()) / "parawire-bench"
    names = ("minilm-torch", "minilm", "minilm-onnx")
    embedders = {name: embedder_for(VectorsConfig(models={"en": name}), cache, "en")
                 for name in names}
    rates: dict[str, float] = {}
    vectors: dict[str, np.ndarray] = {}
    for name, embedder in embedders.items():
        embedder.encode(texts[:64])
        best = float("inf")
        for _ in range(2):
            started = time.perf_counter()
            vectors[name] = embedder.encode(texts)
            best = min(best, time.perf_counter() - started)
        rates[name] = len(texts) / best
    alone = range(0, len(texts), max(1, len(texts) // 50))
    report("embed_speed", {
        "sentences": len(texts), "sentences_per_second": {k: round(v, 1) for k, v in rates.items()},
        "ratio_to_encode": {name: round(rates[name] / rates["minilm-torch"], 2) for name in names[1:]},
        "cosine_to_torch": {name: _spread((vectors["minilm-torch"] * vectors[name]).sum(axis=1))
                            for name in names[1:]},
        "cosine_alone_to_batched": {name: _spread(np.array([
            float(embedders[name].encode([texts[i]])[0] @ vectors[name][i]) for i in alone]))
            for name in names},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "note": "2 cores shared with other engineers' jobs: absolute rates are pessimistic"})


def _spread(cosines: np.ndarray) -> dict[str, float]:
    return {"min": round(float(cosines.min()), 4), "mean": round(float(cosines.mean()), 4)}

if __name__ == "__main__":
    main()
