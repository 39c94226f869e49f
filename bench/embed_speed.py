"""English embedding speed: MiniLM through onnxruntime with int8 weights ("minilm-onnx") as a
ratio to plain sentence-transformers `model.encode` ("minilm"), in the same run, on the same
MSRP sentences (train), each timed twice after a warm-up, best of the two; peak RSS.

    nice .venv/bin/python bench/embed_speed.py [--sentences 2000]

The machine is shared: absolute rates are pessimistic, the ratio is what to read."""

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
    embedders = {name: embedder_for(VectorsConfig(models={"en": name}), cache, "en")
                 for name in ("minilm", "minilm-onnx")}
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
    agreement = (vectors["minilm"] * vectors["minilm-onnx"]).sum(axis=1)
    report("embed_speed", {
        "sentences": len(texts), "sentences_per_second": {k: round(v, 1) for k, v in rates.items()},
        "ratio_onnx_to_encode": round(rates["minilm-onnx"] / rates["minilm"], 2),
        "cosine_onnx_vs_torch": {"min": round(float(agreement.min()), 4),
                                 "mean": round(float(agreement.mean()), 4)},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "note": "2 cores shared with other engineers' jobs: absolute rates are pessimistic"})


if __name__ == "__main__":
    main()
