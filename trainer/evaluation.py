"""Scoring a checkpoint on a split of its corpus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parawire.trainer.corpus import autoencoder_pairs, read_split
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.inference import Paraphraser
from parawire.trainer.metrics import score_all


def evaluate(checkpoint: Path, split: str = "test", corpus: Path | None = None,
             options: DecodeOptions | None = None, limit: int | None = None,
             predictions: Path | None = None, device: str = "auto",
             threads: int = 0) -> dict[str, Any]:
    """ROUGE-1/2/L F1 and BLEU of the checkpoint's outputs against the split's targets, and
    self-BLEU, iBLEU and the unchanged share against its inputs (the corpus recorded in the
    checkpoint unless another is given)."""
    paraphraser = Paraphraser(checkpoint, device, threads)
    corpus = corpus or paraphraser.corpus
    options = options or DecodeOptions(max_len=paraphraser.max_len)
    pairs = read_split(corpus, split, paraphraser.max_len)
    if paraphraser.kind == "autoencoder":
        pairs = autoencoder_pairs(pairs)
    pairs = pairs[:limit] if limit is not None else pairs
    outputs = paraphraser.generate([p.source for p in pairs], options)
    hypotheses = [" ".join(tokens) for tokens in outputs]
    references = [" ".join(p.target) for p in pairs]
    inputs = [" ".join(p.source) for p in pairs]
    if predictions is not None:
        with predictions.open("w", encoding="utf-8") as handle:
            for pair, hypothesis in zip(pairs, hypotheses, strict=True):
                handle.write(json.dumps({"input": " ".join(pair.source), "target": " ".join(pair.target),
                                         "output": hypothesis}, ensure_ascii=False) + "\n")
    return {"checkpoint": str(checkpoint), "corpus": str(corpus), "split": split,
            "examples": len(pairs), "beam": options.beam,
            **score_all(hypotheses, references, inputs)}
