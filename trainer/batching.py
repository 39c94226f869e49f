"""Pairs to tensors: vocabulary ids, the per-example extended vocabulary, batches by length."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import torch

from parawire.trainer.corpus import BOS_ID, EOS_ID, PAD_ID, UNK_ID, TokenPair, Vocabulary


@dataclass(frozen=True, slots=True)
class Encoded:
    """One pair as ids; OOV source words get ids V, V+1, … in order of first appearance."""

    source: list[int]          # vocabulary ids, UNK for OOV words (encoder input)
    source_ext: list[int]      # extended ids (copy targets)
    oovs: list[str]            # the example's OOV words, index i ↔ id V+i
    decoder_input: list[int]   # BOS + target, vocabulary ids
    target: list[int]          # target + EOS, extended ids when copying (UNK otherwise)


def source_oovs(tokens: Sequence[str], vocab: Vocabulary) -> tuple[list[int], list[int], list[str]]:
    """Vocabulary ids, extended ids and OOV list of one source sentence."""
    ids = vocab.encode(tokens)
    oovs: list[str] = []
    extended: list[int] = []
    for token, index in zip(tokens, ids, strict=True):
        if token in vocab.stoi:
            extended.append(index)
            continue
        if token not in oovs:
            oovs.append(token)
        extended.append(len(vocab) + oovs.index(token))
    return ids, extended, oovs


def encode_pair(pair: TokenPair, vocab: Vocabulary, copy: bool) -> Encoded:
    """Ids of a pair; a target OOV word present in the source gets its copy id if copy is on."""
    source, source_ext, oovs = source_oovs(pair.source, vocab)
    target: list[int] = []
    for token in pair.target:
        index = vocab.stoi.get(token, UNK_ID)
        if index == UNK_ID and copy and token in oovs:
            index = len(vocab) + oovs.index(token)
        target.append(index)
    return Encoded(source, source_ext, oovs, [BOS_ID, *vocab.encode(pair.target)], [*target, EOS_ID])


@dataclass(slots=True)
class Batch:
    """Padded tensors of a batch (batch first) and its OOV lists."""

    source: torch.Tensor        # (B, S)
    source_ext: torch.Tensor    # (B, S)
    source_mask: torch.Tensor   # (B, S) bool, True on real tokens
    source_lengths: torch.Tensor  # (B,) on CPU, for packing
    decoder_input: torch.Tensor  # (B, T)
    target: torch.Tensor        # (B, T), PAD after EOS
    oovs: list[list[str]]

    @property
    def max_oovs(self) -> int:
        """Size of the largest extension of the vocabulary in the batch."""
        return max((len(o) for o in self.oovs), default=0)

    def tokens(self) -> int:
        """Real (non-padding) source and target tokens."""
        return int(self.source_mask.sum()) + int((self.target != PAD_ID).sum())

    def to(self, device: torch.device) -> Batch:
        """The batch on device (lengths stay on the CPU)."""
        return Batch(self.source.to(device), self.source_ext.to(device), self.source_mask.to(device),
                     self.source_lengths, self.decoder_input.to(device), self.target.to(device),
                     self.oovs)


def _pad(rows: Sequence[Sequence[int]], pad: int) -> torch.Tensor:
    width = max(1, max(len(r) for r in rows))
    return torch.tensor([[*r, *[pad] * (width - len(r))] for r in rows], dtype=torch.long)


def collate(items: Sequence[Encoded]) -> Batch:
    """Pad a list of encoded pairs into one batch."""
    pad = PAD_ID
    lengths = torch.tensor([max(1, len(e.source)) for e in items], dtype=torch.long)
    source = _pad([e.source for e in items], pad)
    return Batch(source, _pad([e.source_ext for e in items], pad),
                 torch.arange(source.size(1))[None, :] < lengths[:, None], lengths,
                 _pad([e.decoder_input for e in items], pad), _pad([e.target for e in items], pad),
                 [e.oovs for e in items])


def length_batches(items: Sequence[Encoded], batch_size: int, seed: int | None) -> Iterator[Batch]:
    """Batches of pairs of similar source length; the batch order is shuffled under seed
    (None keeps it sorted, for evaluation)."""
    order = sorted(range(len(items)), key=lambda i: (len(items[i].source), len(items[i].target), i))
    chunks = [order[start:start + batch_size] for start in range(0, len(order), batch_size)]
    if seed is not None:
        random.Random(seed).shuffle(chunks)
    for chunk in chunks:
        yield collate([items[i] for i in chunk])
