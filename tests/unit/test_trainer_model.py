"""Pointer-generator arithmetic, pair encoding and decoding rules, on tiny untrained models."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from parawire.trainer.batching import collate, encode_pair  # noqa: E402
from parawire.trainer.corpus import UNK_ID, TokenPair, Vocabulary  # noqa: E402
from parawire.trainer.decoding import DecodeOptions, beam_search, blocked_trigram_ends, greedy  # noqa: E402
from parawire.trainer.model import ModelConfig, PointerGenerator, final_distribution  # noqa: E402


def test_copy_distribution_on_a_hand_computed_example():
    # Vocabulary of 4; the source is [word 2, OOV "zorvak", OOV "zorvak"]: extended id 4.
    vocab_probs = torch.tensor([[0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3, 0.4]])
    attention = torch.tensor([[0.5, 0.25, 0.25], [0.5, 0.25, 0.25]])
    p_gen = torch.tensor([[0.8], [1.0]])
    source_ext = torch.tensor([[2, 4, 4], [2, 4, 4]])
    mixed = final_distribution(vocab_probs, attention, p_gen, source_ext, extended_size=5)
    # Row 0: 0.8·P_vocab, plus 0.2·0.5 on word 2 and 0.2·(0.25 + 0.25) on the OOV.
    assert mixed[0].tolist() == pytest.approx([0.08, 0.16, 0.34, 0.32, 0.10])
    # Row 1: p_gen = 1 copies nothing.
    assert mixed[1].tolist() == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.0])


def test_encoding_gives_source_oovs_extended_ids_and_copy_targets():
    vocab = Vocabulary(["met", "in", "."])
    pair = TokenPair(("zorvak", "met", "bilo", "zorvak", "."), ("bilo", "met", "nobody", "."))
    pointer = encode_pair(pair, vocab, copy=True)
    v = len(vocab)
    assert pointer.oovs == ["zorvak", "bilo"]
    assert pointer.source == [UNK_ID, vocab.stoi["met"], UNK_ID, UNK_ID, vocab.stoi["."]]
    assert pointer.source_ext == [v, vocab.stoi["met"], v + 1, v, vocab.stoi["."]]
    # "bilo" is copied from the source; "nobody" is nowhere in it and stays UNK.
    assert pointer.target[:4] == [v + 1, vocab.stoi["met"], UNK_ID, vocab.stoi["."]]
    assert pointer.decoder_input[1] == UNK_ID  # the decoder reads vocabulary ids only
    assert encode_pair(pair, vocab, copy=False).target[0] == UNK_ID


def _tiny(kind: str, vocab: Vocabulary, seed: int = 3) -> PointerGenerator:
    torch.manual_seed(seed)
    return PointerGenerator(ModelConfig.for_kind(kind, len(vocab), embedding=8, hidden=12)).eval()


VOCAB = Vocabulary(["the", "mayor", "met", "council", "in", "town", "on", "monday", "and", ",", "."])
SENTENCES = [("the", "mayor", "zorvak", "met", "the", "council", "."),
             ("bilo", "met", "kemu", "in", "town", "on", "monday", "."),
             ("and", ",")]


@pytest.mark.parametrize("kind", ["pointer", "seq2seq"])
def test_beam_of_one_equals_greedy(kind):
    model = _tiny(kind, VOCAB)
    options = DecodeOptions(beam=1, max_len=12)
    items = [encode_pair(TokenPair(s, ()), VOCAB, copy=True) for s in SENTENCES]
    together = greedy(model, collate(items), options)
    alone = [beam_search(model, collate([item]), options) for item in items]
    assert together == alone
    assert any(together)


def test_pointer_never_emits_unk_even_when_it_is_the_likeliest_word():
    model = _tiny("pointer", VOCAB)
    with torch.no_grad():
        model.out_vocab.bias[UNK_ID] = 50.0  # UNK dominates the vocabulary distribution
    item = encode_pair(TokenPair(SENTENCES[1], ()), VOCAB, copy=True)
    outputs = [*greedy(model, collate([item]), DecodeOptions(beam=1, max_len=10)),
               beam_search(model, collate([item]), DecodeOptions(beam=4, max_len=10))]
    for output in outputs:
        assert output and UNK_ID not in output
        assert all(token < len(VOCAB) + len(item.oovs) for token in output)
    seq2seq = _tiny("seq2seq", VOCAB)
    with torch.no_grad():
        seq2seq.out_vocab.bias[UNK_ID] = 50.0
    (plain,) = greedy(seq2seq, collate([item]), DecodeOptions(beam=1, max_len=10))
    assert plain[0] == UNK_ID  # without copying, UNK is all it has for a name


def test_trigram_blocking():
    assert blocked_trigram_ends([5, 6, 7, 5, 6]) == {7}
    assert blocked_trigram_ends([5, 6, 7, 8]) == set()
    assert blocked_trigram_ends([5, 6]) == set()


def _repeats(output: list[int]) -> int:
    trigrams = [tuple(output[i:i + 3]) for i in range(len(output) - 2)]
    return len(trigrams) - len(set(trigrams))


def test_beam_search_blocks_repeated_trigrams():
    model = _tiny("seq2seq", VOCAB, seed=5)
    batch = collate([encode_pair(TokenPair(SENTENCES[0], ()), VOCAB, copy=False)])
    free = beam_search(model, batch, DecodeOptions(beam=3, max_len=30, block_trigrams=False))
    assert _repeats(free) > 0  # this untrained model loops when let
    assert _repeats(beam_search(model, batch, DecodeOptions(beam=3, max_len=30))) == 0


@torch.no_grad()
def test_coverage_loss_adds_the_overlap_of_attention_and_coverage():
    torch.manual_seed(0)
    config = ModelConfig.for_kind("pointer", len(VOCAB), embedding=8, hidden=12, coverage=True)
    model = PointerGenerator(config).eval()
    pair = TokenPair(SENTENCES[0], ("the", "zorvak", "council", "met", "."))
    batch = collate([encode_pair(pair, VOCAB, copy=True)])
    plain, count = model.loss(batch, coverage_weight=0.0)
    weighted, _ = model.loss(batch, coverage_weight=1.0)
    # By hand: Σ_t Σ_i min(a_t,i, c_t,i), where c_t is the sum of the earlier attentions.
    memory, state = model.encode(batch)
    overlap = 0.0
    for t in range(batch.target.size(1)):
        step = model.step(batch.decoder_input[:, t], state, memory)
        overlap += float(torch.minimum(step.attention, step.coverage_before).sum())
        state = step.state
    assert count == 6 and overlap > 0
    assert float(weighted - plain) == pytest.approx(overlap, rel=1e-5)
