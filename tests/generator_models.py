"""Tiny untrained forward and backward checkpoints for the generators' tests (torch needed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path


def tiny_models(folder: Path, words: Sequence[str], pairs: Sequence[tuple[str, str]]):
    """Models (forward seed 3, backward seed 4) over a vocabulary of words, with pairs as the
    corpus's train and validation splits; small enough to decode a 50-wide beam in a blink."""
    import torch

    from parawire.trainer.checkpoints import Progress, save_checkpoint
    from parawire.trainer.corpus import Vocabulary
    from parawire.trainer.generators import Models
    from parawire.trainer.model import ModelConfig, PointerGenerator

    vocab = Vocabulary(list(words))
    corpus = folder / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for split in ("train", "valid"):
        (corpus / f"{split}.jsonl").write_text("".join(json.dumps({"input": a, "target": b}) + "\n"
                                                       for a, b in pairs))
    paths = {}
    for direction, seed in [("forward", 3), ("backward", 4)]:
        torch.manual_seed(seed)
        model = PointerGenerator(ModelConfig.for_kind("pointer", len(vocab), embedding=8, hidden=12))
        paths[direction] = folder / f"{direction}.pt"
        save_checkpoint(paths[direction], model.eval(), vocab, "pointer",
                        {"max_len": 12, "corpus": str(corpus), "direction": direction}, Progress())
    return Models.load(paths["forward"], paths["backward"], device="cpu")
