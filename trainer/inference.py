"""Paraphrasing sentences with a trained checkpoint."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import torch

from parawire.trainer.batching import Encoded, collate, encode_pair
from parawire.trainer.checkpoints import load_model, read_checkpoint
from parawire.trainer.corpus import TokenPair, detokenize, tokenize
from parawire.trainer.decoding import DecodeOptions, decode, mean_nll, nbest, sample_topk, words
from parawire.trainer.training import pick_device, set_threads


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
        self.direction: str = state["train_config"].get("direction", "forward")

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

    def _encoded(self, source: Sequence[str], target: Sequence[str] = ()) -> Encoded:
        pair = TokenPair(tuple(source[:self.max_len]), tuple(target[:self.max_len]))
        return encode_pair(pair, self.vocab, self.model.config.copy)

    @torch.no_grad()
    def nbest(self, source: Sequence[str], options: DecodeOptions,
              choose: Callable[[int, list[list[str]]], list[int]] | None = None,
              keep: Iterable[str] = (), bonus: float = 0.0) -> list[tuple[list[str], float]]:
        """Every finished beam hypothesis for one tokenised source with its length-normalised
        log-probability, best first; `choose` (decoding.nbest's) reads the partial hypotheses
        as words; the words of `keep` get `bonus` until written (decoding.nbest)."""
        if not source:
            return []
        item = self._encoded(source)
        pick = None if choose is None else (
            lambda step, rows: choose(step, [words(r, self.vocab.itos, item.oovs) for r in rows]))
        ranked = nbest(self.model, collate([item]).to(self.device), options, pick,
                       self.word_ids(item, keep), bonus)
        return [(words(ids, self.vocab.itos, item.oovs), score) for ids, score in ranked]

    def word_ids(self, item: Encoded, tokens: Iterable[str]) -> set[int]:
        """The ids the model emits each word with, for one encoded source: its vocabulary id,
        or its copy id when it is one of the source's OOV words (others cannot be emitted)."""
        ids = set()
        for word in tokens:
            if word in self.vocab.stoi:
                ids.add(self.vocab.stoi[word])
            elif self.model.config.copy and word in item.oovs:
                ids.add(len(self.vocab) + item.oovs.index(word))
        return ids

    @torch.no_grad()
    def sample(self, source: Sequence[str], banned: Sequence[frozenset[str]], options: DecodeOptions,
               top_k: int, penalty: float, seed: int, batch_size: int) -> list[list[str]]:
        """One top-k sample per entry of banned (the words that sample may not use), decoded
        batch_size rows at a time; the same seed gives the same samples."""
        if not source:
            return [[] for _ in banned]
        item = self._encoded(source)
        batch = collate([item]).to(self.device)
        generator = torch.Generator().manual_seed(seed)
        outputs: list[list[str]] = []
        for start in range(0, len(banned), batch_size):
            chunk = [self.word_ids(item, tokens) for tokens in banned[start:start + batch_size]]
            rows = torch.zeros(len(chunk), dtype=torch.long, device=self.device)
            for ids in sample_topk(self.model, batch, rows, options, top_k, chunk, penalty, generator):
                outputs.append(words(ids, self.vocab.itos, item.oovs))
        return outputs

    @torch.no_grad()
    def mean_nll(self, pairs: Sequence[tuple[Sequence[str], Sequence[str]]],
                 batch_size: int = 64) -> list[float]:
        """Teacher-forced mean NLL per token of each (source, target) pair, in order (an empty
        side gives inf: the model cannot read or write an empty sentence here)."""
        scores = [float("inf")] * len(pairs)
        todo = [i for i, (source, target) in enumerate(pairs) if source and target]
        todo.sort(key=lambda i: len(pairs[i][0]))
        for start in range(0, len(todo), batch_size):
            rows = todo[start:start + batch_size]
            batch = collate([self._encoded(*pairs[i]) for i in rows]).to(self.device)
            for row, value in zip(rows, mean_nll(self.model, batch), strict=True):
                scores[row] = value
        return scores
