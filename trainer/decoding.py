"""Decoding primitives: greedy search, beam search (n-best), top-k sampling under negative
constraints, and teacher-forced scoring; with length normalisation, repeated-trigram blocking
and (an option) blocking of the source's n-grams."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import torch

from parawire.config import TrainerConfig
from parawire.trainer.batching import Batch
from parawire.trainer.corpus import BOS_ID, EOS_ID, PAD_ID, UNK_ID
from parawire.trainer.model import DecoderState, Memory, PointerGenerator

_TRAIN = TrainerConfig()


@dataclass(frozen=True, slots=True)
class DecodeOptions:
    """How to search: beam 1 is greedy search (defaults: [train] in parawire.config)."""

    beam: int = _TRAIN.beam
    max_len: int = _TRAIN.max_len
    length_penalty: float = _TRAIN.length_penalty
    block_trigrams: bool = True
    block_source_ngrams: int = _TRAIN.block_source_ngrams

    @classmethod
    def from_config(cls, config: TrainerConfig, beam: int | None = None) -> DecodeOptions:
        """Decoding as the [train] section sets it; beam None: config.beam."""
        return cls(beam=config.beam if beam is None else beam, max_len=config.max_len,
                   length_penalty=config.length_penalty,
                   block_source_ngrams=config.block_source_ngrams)


def blocked_trigram_ends(tokens: Sequence[int]) -> set[int]:
    """Words that would repeat a trigram already in tokens if appended next."""
    if len(tokens) < 3:
        return set()
    last = (tokens[-2], tokens[-1])
    return {tokens[i + 2] for i in range(len(tokens) - 2) if (tokens[i], tokens[i + 1]) == last}


def source_ngram_ends(tokens: Sequence[int], source_ngrams: set[tuple[int, ...]], n: int) -> set[int]:
    """Words that would complete one of the source's n-grams if appended next."""
    if n < 1 or len(tokens) < n - 1:
        return set()
    head = tuple(tokens[len(tokens) - n + 1:]) if n > 1 else ()
    return {gram[-1] for gram in source_ngrams if gram[:-1] == head}


def ngrams(tokens: Sequence[int], n: int) -> set[tuple[int, ...]]:
    """The distinct n-grams of tokens."""
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)} if n > 0 else set()


def next_scores(model: PointerGenerator, probs: torch.Tensor, histories: Sequence[Sequence[int]],
                sizes: Sequence[int], options: DecodeOptions,
                source_ngrams: Sequence[set[tuple[int, ...]]] | None = None) -> torch.Tensor:
    """Log-probabilities of the next word for each row, with the words it may not emit at -inf:
    padding and BOS; UNK when the model can copy; extended ids past the row's own OOV words
    (sizes: vocabulary plus OOV count of each row); words that would repeat a trigram; with
    options.block_source_ngrams = n and each row's source n-grams given, words that would
    complete one of them."""
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
    if options.block_source_ngrams and source_ngrams is not None:
        for row, (history, grams) in enumerate(zip(histories, source_ngrams, strict=True)):
            banned = source_ngram_ends(history, grams, options.block_source_ngrams)
            if banned:
                scores[row, list(banned)] = float("-inf")
    return scores


def _source_ngrams(batch: Batch, options: DecodeOptions) -> list[set[tuple[int, ...]]] | None:
    if not options.block_source_ngrams:
        return None
    return [ngrams(row[:int(length)], options.block_source_ngrams)
            for row, length in zip(batch.source_ext.tolist(), batch.source_lengths, strict=True)]


def _sizes(model: PointerGenerator, batch: Batch) -> list[int]:
    return [model.config.vocab_size + len(oovs) for oovs in batch.oovs]


def _decode_rows(model: PointerGenerator, memory: Memory, state: DecoderState, sizes: Sequence[int],
                 grams: Sequence[set[tuple[int, ...]]] | None, options: DecodeOptions,
                 pick: Callable[[torch.Tensor], torch.Tensor]) -> list[list[int]]:
    """Decode every row word by word: pick(scores) chooses each row's next word from the
    scores next_scores allows; a row stops at EOS (not kept), all stop at max_len."""
    rows = len(sizes)
    previous = torch.full((rows,), BOS_ID, dtype=torch.long, device=memory.mask.device)
    outputs: list[list[int]] = [[] for _ in range(rows)]
    done = [False] * rows
    for _ in range(options.max_len):
        step = model.step(previous, state, memory)
        state = step.state
        chosen = pick(next_scores(model, step.probs, outputs, sizes, options, grams))
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


@torch.no_grad()
def greedy(model: PointerGenerator, batch: Batch, options: DecodeOptions) -> list[list[int]]:
    """The most probable word at each step, for every row of the batch (extended ids, no EOS)."""
    memory, state = model.encode(batch)
    return _decode_rows(model, memory, state, _sizes(model, batch), _source_ngrams(batch, options),
                        options, lambda scores: scores.argmax(dim=-1))


@dataclass(slots=True)
class _Hypothesis:
    tokens: list[int]
    log_prob: float

    def normalized(self, penalty: float, ended: bool) -> float:
        return self.log_prob / max(1, len(self.tokens) + ended) ** penalty


Choose = Callable[[int, list[list[int]]], list[int]]


@torch.no_grad()
def nbest(model: PointerGenerator, batch: Batch, options: DecodeOptions,
          choose: Choose | None = None, keep: Collection[int] = (),
          bonus: float = 0.0) -> list[tuple[list[int], float]]:
    """Every finished hypothesis of a one-sentence batch with its score, best first: the beam
    keeps `beam` live hypotheses, stops when `beam` have ended, and scores ended ones (and the
    live ones at max_len) by log-probability / length^penalty.

    With `choose` (DiPS per step), each step's 3 · beam best extensions go to
    choose(step, their token lists), which returns the indices of those kept (at most beam).
    With `keep` and `bonus`, each word of keep that a hypothesis has not written yet gets
    bonus added to its log-probability (a soft constraint: keep the input's names)."""
    if batch.source.size(0) != 1:
        raise ValueError("beam search decodes one sentence at a time")
    memory, state = model.encode(batch)
    live = [_Hypothesis([], 0.0)]
    ended: list[tuple[list[int], float]] = []
    device = batch.source.device
    size = _sizes(model, batch)[0]
    grams = _source_ngrams(batch, options)
    limit = options.beam if choose is None else 3 * options.beam
    for position in range(options.max_len):
        rows = torch.zeros(len(live), dtype=torch.long, device=device)
        previous = torch.tensor([h.tokens[-1] if h.tokens else BOS_ID for h in live], device=device)
        step = model.step(previous, state, memory.select(rows))
        scores = next_scores(model, step.probs, [h.tokens for h in live], [size] * len(live), options,
                             grams * len(live) if grams else None)
        if keep and bonus:
            for row, hypothesis in enumerate(live):
                missing = set(keep).difference(hypothesis.tokens)
                if missing:
                    scores[row, list(missing)] += bonus
        totals = torch.tensor([h.log_prob for h in live], device=device)[:, None] + scores
        width = totals.size(1)
        top = totals.view(-1).topk(min(options.beam + limit, totals.numel()))
        survivors: list[_Hypothesis] = []
        parents: list[int] = []
        for value, index in zip(top.values.tolist(), top.indices.tolist(), strict=True):
            if value == float("-inf"):
                break
            parent, token = divmod(index, width)
            if token == EOS_ID:
                tokens = live[parent].tokens
                ended.append((tokens, _Hypothesis(tokens, value).normalized(
                    options.length_penalty, ended=True)))
            else:
                survivors.append(_Hypothesis([*live[parent].tokens, token], value))
                parents.append(parent)
            if len(survivors) == limit:
                break
        if choose is not None and survivors:
            kept = choose(position, [h.tokens for h in survivors])
            survivors, parents = [survivors[i] for i in kept], [parents[i] for i in kept]
        if len(ended) >= options.beam or not survivors:
            break
        live = survivors
        state = step.state.select(torch.tensor(parents, device=device))
    else:
        ended += [(h.tokens, h.normalized(options.length_penalty, ended=False)) for h in live]
    return sorted(ended, key=lambda item: -item[1])


def beam_search(model: PointerGenerator, batch: Batch, options: DecodeOptions) -> list[int]:
    """The best hypothesis of nbest (empty when none ended)."""
    ranked = nbest(model, batch, options)
    return ranked[0][0] if ranked else []


@torch.no_grad()
def sample_topk(model: PointerGenerator, batch: Batch, rows: torch.Tensor, options: DecodeOptions,
                top_k: int, banned: Sequence[Collection[int]], penalty: float,
                generator: torch.Generator) -> list[list[int]]:
    """One top-k sample per output row (rows[i]: the batch row it decodes; extended ids, no EOS).

    At each step the next word is drawn from the k most probable words of the final
    vocabulary+copy distribution, renormalised, after the decoding rules of next_scores and
    the row's negative constraints: the log-probability of each id in banned[i] is lowered by
    `penalty` (inf: never emitted)."""
    memory, state = model.encode(batch)
    memory, state = memory.select(rows), state.select(rows)
    every = _sizes(model, batch)
    grams = _source_ngrams(batch, options)
    mask = torch.zeros(rows.numel(), memory.extended_size, dtype=torch.bool, device=rows.device)
    for row, ids in enumerate(banned):
        if ids:
            mask[row, list(ids)] = True

    def pick(scores: torch.Tensor) -> torch.Tensor:
        if penalty == float("inf"):
            scores = scores.masked_fill(mask, float("-inf"))
        else:
            scores = scores - mask * penalty
        top = scores.topk(min(top_k, scores.size(1)), dim=-1)
        weights = torch.softmax(top.values, dim=-1).cpu()
        chosen = torch.multinomial(weights, 1, generator=generator).to(scores.device)
        return top.indices.gather(1, chosen).squeeze(1)

    return _decode_rows(model, memory, state, [every[r] for r in rows.tolist()],
                        [grams[r] for r in rows.tolist()] if grams else None, options, pick)


@torch.no_grad()
def mean_nll(model: PointerGenerator, batch: Batch) -> list[float]:
    """Teacher-forced mean negative log-likelihood per target token (EOS included) of each row."""
    log_probs, _ = model.gold_log_probs(batch)
    counts = (batch.target != PAD_ID).sum(dim=1).clamp_min(1)
    return (-log_probs.sum(dim=1) / counts).tolist()


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
