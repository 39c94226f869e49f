"""Greedy and beam-search decoding with length normalisation and repeated-trigram blocking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from parawire.config import TrainerConfig
from parawire.trainer.batching import Batch
from parawire.trainer.corpus import BOS_ID, EOS_ID, PAD_ID, UNK_ID
from parawire.trainer.model import PointerGenerator

_TRAIN = TrainerConfig()


@dataclass(frozen=True, slots=True)
class DecodeOptions:
    """How to search: beam 1 is greedy search (defaults: [train] in parawire.config)."""

    beam: int = _TRAIN.beam
    max_len: int = _TRAIN.max_len
    length_penalty: float = _TRAIN.length_penalty
    block_trigrams: bool = True

    @classmethod
    def from_config(cls, config: TrainerConfig, beam: int | None = None) -> DecodeOptions:
        """Decoding as the [train] section sets it; beam None: config.beam."""
        return cls(beam=config.beam if beam is None else beam, max_len=config.max_len,
                   length_penalty=config.length_penalty)


def blocked_trigram_ends(tokens: Sequence[int]) -> set[int]:
    """Words that would repeat a trigram already in tokens if appended next."""
    if len(tokens) < 3:
        return set()
    last = (tokens[-2], tokens[-1])
    return {tokens[i + 2] for i in range(len(tokens) - 2) if (tokens[i], tokens[i + 1]) == last}


def next_scores(model: PointerGenerator, probs: torch.Tensor, histories: Sequence[Sequence[int]],
                sizes: Sequence[int], options: DecodeOptions) -> torch.Tensor:
    """Log-probabilities of the next word for each row, with the words it may not emit at -inf:
    padding and BOS; UNK when the model can copy; extended ids past the row's own OOV words
    (sizes: vocabulary plus OOV count of each row); words that would repeat a trigram."""
    scores = torch.log(probs.float().clamp_min(1e-30))
    scores[:, [PAD_ID, BOS_ID]] = float("-inf")
    if model.config.copy:
        scores[:, UNK_ID] = float("-inf")
        limits = torch.tensor(sizes, device=scores.device)[:, None]
        columns = torch.arange(scores.size(1), device=scores.device)[None, :]
        scores = scores.masked_fill(columns >= limits, float("-inf"))
    if options.block_trigrams:
        for row, history in enumerate(histories):
            banned = blocked_trigram_ends(history)
            if banned:
                scores[row, list(banned)] = float("-inf")
    return scores


def _sizes(model: PointerGenerator, batch: Batch) -> list[int]:
    return [model.config.vocab_size + len(oovs) for oovs in batch.oovs]


@torch.no_grad()
def greedy(model: PointerGenerator, batch: Batch, options: DecodeOptions) -> list[list[int]]:
    """The most probable word at each step, for every row of the batch (extended ids, no EOS)."""
    memory, state = model.encode(batch)
    rows = batch.source.size(0)
    previous = torch.full((rows,), BOS_ID, dtype=torch.long, device=batch.source.device)
    outputs: list[list[int]] = [[] for _ in range(rows)]
    done = [False] * rows
    sizes = _sizes(model, batch)
    for _ in range(options.max_len):
        step = model.step(previous, state, memory)
        state = step.state
        chosen = next_scores(model, step.probs, outputs, sizes, options).argmax(dim=-1)
        for row, token in enumerate(chosen.tolist()):
            if done[row]:
                continue
            if token == EOS_ID:
                done[row] = True
            else:
                outputs[row].append(token)
        if all(done):
            break
        previous = chosen
    return outputs


@dataclass(slots=True)
class _Hypothesis:
    tokens: list[int]
    log_prob: float

    def normalized(self, penalty: float, ended: bool) -> float:
        return self.log_prob / max(1, len(self.tokens) + ended) ** penalty


@torch.no_grad()
def beam_search(model: PointerGenerator, batch: Batch, options: DecodeOptions) -> list[int]:
    """Best hypothesis for a one-sentence batch: the beam keeps `beam` live hypotheses,
    stops when `beam` have ended, and ranks ended ones by log-probability / length^penalty."""
    if batch.source.size(0) != 1:
        raise ValueError("beam_search decodes one sentence at a time")
    memory, state = model.encode(batch)
    live = [_Hypothesis([], 0.0)]
    ended: list[tuple[float, list[int]]] = []
    device = batch.source.device
    size = _sizes(model, batch)[0]
    for _ in range(options.max_len):
        rows = torch.zeros(len(live), dtype=torch.long, device=device)
        previous = torch.tensor([h.tokens[-1] if h.tokens else BOS_ID for h in live], device=device)
        step = model.step(previous, state, memory.select(rows))
        scores = next_scores(model, step.probs, [h.tokens for h in live], [size] * len(live), options)
        totals = torch.tensor([h.log_prob for h in live], device=device)[:, None] + scores
        width = totals.size(1)
        top = totals.view(-1).topk(min(2 * options.beam, totals.numel()))
        survivors: list[_Hypothesis] = []
        parents: list[int] = []
        for value, index in zip(top.values.tolist(), top.indices.tolist(), strict=True):
            if value == float("-inf"):
                break
            parent, token = divmod(index, width)
            hypothesis = _Hypothesis([*live[parent].tokens, token], value)
            if token == EOS_ID:
                ended.append((_Hypothesis(live[parent].tokens, value).normalized(
                    options.length_penalty, ended=True), live[parent].tokens))
            else:
                survivors.append(hypothesis)
                parents.append(parent)
            if len(survivors) == options.beam:
                break
        if len(ended) >= options.beam or not survivors:
            break
        live = survivors
        state = step.state.select(torch.tensor(parents, device=device))
    else:
        ended += [(h.normalized(options.length_penalty, ended=False), h.tokens) for h in live]
    return max(ended, key=lambda item: item[0])[1] if ended else []


def decode(model: PointerGenerator, batch: Batch, options: DecodeOptions) -> list[list[int]]:
    """Extended ids of each row's output: greedy for beam 1 on many rows, else beam search."""
    if options.beam == 1:
        return greedy(model, batch, options)
    return [beam_search(model, _row(batch, i), options) for i in range(batch.source.size(0))]


def _row(batch: Batch, index: int) -> Batch:
    length = int(batch.source_lengths[index])
    return Batch(batch.source[index:index + 1, :length], batch.source_ext[index:index + 1, :length],
                 batch.source_mask[index:index + 1, :length], batch.source_lengths[index:index + 1],
                 batch.decoder_input[index:index + 1], batch.target[index:index + 1],
                 [batch.oovs[index]])


def words(ids: Sequence[int], itos: Sequence[str], oovs: Sequence[str]) -> list[str]:
    """Tokens of extended ids: vocabulary words, then the sentence's copied OOV words."""
    return [itos[i] if i < len(itos) else oovs[i - len(itos)] for i in ids]
