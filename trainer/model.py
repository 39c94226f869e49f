"""Seq2seq with additive attention and the pointer-generator (See et al. 2017), one module.

The same network serves three variants, chosen by ModelConfig: pointer-generator (copy on),
seq2seq + attention (copy off), and the autoencoder used for pre-training (attention and copy
off). Every variant has the same parameters, so weights move between them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from parawire.config import TrainingConfig
from parawire.trainer.batching import Batch
from parawire.trainer.corpus import PAD_ID, UNK_ID

MODEL_KINDS = ("pointer", "seq2seq", "autoencoder")
EPSILON = 1e-12
_TRAIN = TrainingConfig()


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """Sizes and switches of the network."""

    vocab_size: int
    embedding: int = _TRAIN.embedding
    hidden: int = _TRAIN.hidden
    copy: bool = True
    attention: bool = True
    coverage: bool = _TRAIN.coverage
    dropout: float = _TRAIN.dropout

    @classmethod
    def for_kind(cls, kind: str, vocab_size: int, **sizes: object) -> ModelConfig:
        """The configuration of a named variant: pointer, seq2seq or autoencoder."""
        if kind not in MODEL_KINDS:
            raise ValueError(f"unknown model kind {kind!r}")
        return cls(vocab_size=vocab_size, copy=kind == "pointer", attention=kind != "autoencoder",
                   **sizes)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        """Plain values, for checkpoints."""
        return asdict(self)


def final_distribution(vocab_probs: torch.Tensor, attention: torch.Tensor, p_gen: torch.Tensor,
                       source_ext: torch.Tensor, extended_size: int) -> torch.Tensor:
    """P(w) = p_gen·P_vocab(w) + (1 − p_gen)·Σ_{i: x_i = w} a_i over the extended vocabulary.

    vocab_probs (B, V), attention (B, S), p_gen (B, 1), source_ext (B, S) extended ids.
    """
    batch, vocab = vocab_probs.shape
    mixed = vocab_probs.new_zeros(batch, extended_size)
    mixed[:, :vocab] = p_gen * vocab_probs
    return mixed.scatter_add(1, source_ext, (1 - p_gen) * attention)


@dataclass(slots=True)
class Memory:
    """What the encoder gives the decoder for one batch."""

    outputs: torch.Tensor     # (B, S, 2H)
    features: torch.Tensor    # (B, S, H): W_h·h_i, computed once
    mask: torch.Tensor        # (B, S) bool
    source_ext: torch.Tensor  # (B, S)
    extended_size: int

    def select(self, rows: torch.Tensor) -> Memory:
        """The memory of the given batch rows (beam search expands one sentence)."""
        return Memory(self.outputs[rows], self.features[rows], self.mask[rows],
                      self.source_ext[rows], self.extended_size)


@dataclass(slots=True)
class DecoderState:
    """LSTM state, last context vector and attention coverage of each row."""

    h: torch.Tensor
    c: torch.Tensor
    context: torch.Tensor
    coverage: torch.Tensor

    def select(self, rows: torch.Tensor) -> DecoderState:
        """The states of the given rows, in that order."""
        return DecoderState(self.h[rows], self.c[rows], self.context[rows], self.coverage[rows])


@dataclass(slots=True)
class Step:
    """One decoder step: output distribution over the extended vocabulary and attention."""

    probs: torch.Tensor          # (B, V + OOVs), float32
    attention: torch.Tensor      # (B, S)
    coverage_before: torch.Tensor  # (B, S)
    state: DecoderState


class AdditiveAttention(nn.Module):
    """e_i = vᵀ tanh(W_h h_i + W_s s_t + w_c c_i + b), softmax over the real source tokens."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.memory = nn.Linear(2 * hidden, hidden, bias=False)
        self.query = nn.Linear(hidden, hidden)
        self.coverage = nn.Linear(1, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, features: torch.Tensor, query: torch.Tensor, mask: torch.Tensor,
                coverage: torch.Tensor | None) -> torch.Tensor:
        energy = features + self.query(query)[:, None, :]
        if coverage is not None:
            energy = energy + self.coverage(coverage[..., None].to(energy.dtype))
        scores = self.v(torch.tanh(energy)).squeeze(-1).float()
        return torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)


class PointerGenerator(nn.Module):
    """BiLSTM encoder, attention, LSTM decoder fed the previous word and context, p_gen copy."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        emb, hid = config.embedding, config.hidden
        self.embedding = nn.Embedding(config.vocab_size, emb, padding_idx=PAD_ID)
        self.encoder = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.reduce_h = nn.Linear(2 * hid, hid)
        self.reduce_c = nn.Linear(2 * hid, hid)
        self.attention = AdditiveAttention(hid)
        self.cell = nn.LSTMCell(emb + 2 * hid, hid)
        self.out_hidden = nn.Linear(3 * hid, hid)
        self.out_vocab = nn.Linear(hid, config.vocab_size)
        self.p_gen = nn.Linear(2 * hid + hid + emb + 2 * hid, 1)
        self.dropout = nn.Dropout(config.dropout)

    def _embed(self, ids: torch.Tensor) -> torch.Tensor:
        inside = ids.masked_fill(ids >= self.config.vocab_size, UNK_ID)
        return self.dropout(self.embedding(inside))

    def encode(self, batch: Batch) -> tuple[Memory, DecoderState]:
        """Run the encoder; the decoder starts from its reduced final states."""
        packed = pack_padded_sequence(self._embed(batch.source), batch.source_lengths,
                                      batch_first=True, enforce_sorted=False)
        outputs, (h, c) = self.encoder(packed)
        outputs, _ = pad_packed_sequence(outputs, batch_first=True,
                                         total_length=batch.source.size(1))
        h0 = torch.relu(self.reduce_h(torch.cat([h[0], h[1]], dim=-1)))
        c0 = torch.relu(self.reduce_c(torch.cat([c[0], c[1]], dim=-1)))
        memory = Memory(outputs, self.attention.memory(outputs), batch.source_mask,
                        batch.source_ext, self.config.vocab_size + batch.max_oovs)
        rows, length = batch.source.shape
        state = DecoderState(h0, c0, outputs.new_zeros(rows, outputs.size(-1)),
                             torch.zeros(rows, length, device=outputs.device))
        return memory, state

    def step(self, previous: torch.Tensor, state: DecoderState, memory: Memory) -> Step:
        """One decoder step from the previous word ids (extended ids become UNK)."""
        embedded = self._embed(previous)
        cell_input = torch.cat([embedded, state.context.to(embedded.dtype)], dim=-1)
        h, c = self.cell(cell_input, (state.h, state.c))
        if self.config.attention:
            coverage = state.coverage if self.config.coverage else None
            attention = self.attention(memory.features, h, memory.mask, coverage)
            context = torch.bmm(attention[:, None, :].to(memory.outputs.dtype), memory.outputs)[:, 0]
        else:
            attention = torch.zeros_like(state.coverage)
            context = torch.zeros_like(state.context)
        hidden = self.dropout(self.out_hidden(torch.cat([h, context.to(h.dtype)], dim=-1)))
        probs = torch.softmax(self.out_vocab(hidden).float(), dim=-1)
        if self.config.copy:
            features = torch.cat([context.to(h.dtype), h, cell_input], dim=-1)
            p_gen = torch.sigmoid(self.p_gen(features).float())
            probs = final_distribution(probs, attention, p_gen, memory.source_ext,
                                       memory.extended_size)
        new_state = DecoderState(h, c, context, state.coverage + attention)
        return Step(probs, attention, state.coverage, new_state)

    def gold_log_probs(self, batch: Batch) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher-forced log P(target_t) of every target position (B, T), 0 on padding, and
        the coverage overlap Σ_i min(a_i, c_i) of every step (B, T), 0 without coverage."""
        memory, state = self.encode(batch)
        real = batch.target != PAD_ID
        picked, overlaps = [], []
        for t in range(batch.target.size(1)):
            step = self.step(batch.decoder_input[:, t], state, memory)
            state = step.state
            gold = step.probs.gather(1, batch.target[:, t, None]).squeeze(1)
            picked.append(torch.log(gold + EPSILON))
            if self.config.coverage and self.config.attention:
                overlaps.append(torch.minimum(step.attention, step.coverage_before).sum(-1))
            else:
                overlaps.append(torch.zeros_like(gold))
        log_probs = torch.stack(picked, dim=1) * real
        return log_probs, torch.stack(overlaps, dim=1) * real

    def loss(self, batch: Batch, coverage_weight: float = 1.0) -> tuple[torch.Tensor, int]:
        """Summed negative log-likelihood of the targets (plus weighted coverage loss when
        coverage is on) and the number of target tokens."""
        log_probs, overlaps = self.gold_log_probs(batch)
        total = -log_probs.sum() + coverage_weight * overlaps.sum()
        return total, int((batch.target != PAD_ID).sum())
