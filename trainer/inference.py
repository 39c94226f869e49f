"""Paraphrasing sentences with a trained checkpoint."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import torch

from parawire.trainer.batching import collate, encode_pair
from parawire.trainer.checkpoints import load_model, read_checkpoint
from parawire.trainer.corpus import TokenPair, tokenize
from parawire.trainer.decoding import DecodeOptions, decode, words
from parawire.trainer.training import pick_device, set_threads

_SPACE_BEFORE = re.compile(r" ([.,;:!?)'’]|n't|'s)(?= |$)")
_SPACE_AFTER = re.compile(r"([(]) ")


def detokenize(tokens: Sequence[str]) -> str:
    """Tokens as text: no space before closing punctuation or after an opening bracket."""
    return _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", " ".join(tokens)))


class Paraphraser:
    """A checkpoint's model and vocabulary, ready to decode."""

    def __init__(self, checkpoint: Path, device: str = "auto", threads: int = 0) -> None:
        set_threads(threads)
        state = read_checkpoint(checkpoint)
        self.device = pick_device(device)
        self.model, self.vocab = load_model(state, self.device)
        self.kind: str = state["kind"]
        self.max_len: int = state["train_config"]["max_len"]
        self.corpus = Path(state["train_config"]["corpus"])

    @torch.no_grad()
    def generate(self, sources: Sequence[Sequence[str]], options: DecodeOptions,
                 batch_size: int = 32) -> list[list[str]]:
        """Output tokens for each tokenised source (empty sources give empty outputs)."""
        copy = self.model.config.copy
        outputs: list[list[str]] = [[] for _ in sources]
        todo = [i for i, s in enumerate(sources) if s]
        for start in range(0, len(todo), batch_size):
            rows = todo[start:start + batch_size]
            items = [encode_pair(TokenPair(tuple(sources[i][:self.max_len]), ()), self.vocab, copy)
                     for i in rows]
            batch = collate(items).to(self.device)
            for row, item, ids in zip(rows, items, decode(self.model, batch, options), strict=True):
                outputs[row] = words(ids, self.vocab.itos, item.oovs)
        return outputs

    def paraphrase(self, sentences: Sequence[str], options: DecodeOptions) -> list[str]:
        """Paraphrases of raw sentences, as text (lower-cased, like the training tokens)."""
        return [detokenize(t) for t in self.generate([tokenize(s) for s in sentences], options)]
