"""Training on a tiny templated corpus: copying unseen names, exact resume, pre-training."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from parawire.errors import ParawireError  # noqa: E402
from parawire.trainer.checkpoints import load_model, read_checkpoint  # noqa: E402
from parawire.trainer.decoding import DecodeOptions  # noqa: E402
from parawire.trainer.evaluation import evaluate  # noqa: E402
from parawire.trainer.inference import Paraphraser  # noqa: E402
from parawire.trainer.training import TrainConfig, train  # noqa: E402
from tests.factories import write_paraphrase_corpus  # noqa: E402

# 9 template words + 4 special tokens: every invented name is outside the vocabulary.
TINY = {"vocab_size": 13, "embedding": 16, "hidden": 32, "batch_size": 8, "lr": 0.01, "threads": 1}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    write_paraphrase_corpus(folder)
    return folder


def _metrics(out):
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]


def test_pointer_overfits_and_copies_unseen_names(corpus, tmp_path):
    out = tmp_path / "pointer"
    summary = train(corpus, out, TrainConfig(kind="pointer", max_epochs=30, **TINY))
    assert summary["vocab_size"] == 13 and summary["epochs"] == 30
    losses = [m["train_loss"] for m in _metrics(out)]
    assert losses[-1] < 0.05 < losses[0]
    paraphraser = Paraphraser(out / "best.pt")
    # Names never seen in training, in both templates, greedy and with a beam.
    for beam in (1, 10):
        assert paraphraser.paraphrase(["Quixote met Zanzibar in Bolognia.",
                                       "Ottoline visited Kyoto with Marguerite."],
                                      DecodeOptions(beam=beam)) == [
            "in bolognia, quixote met with zanzibar.", "marguerite and ottoline went to kyoto."]
    scores = evaluate(out / "best.pt", "test", options=DecodeOptions(beam=4))
    assert scores["examples"] == 8 and scores["rougeL"] > 95 and scores["bleu"] > 90


def test_seq2seq_cannot_copy_names(corpus, tmp_path):
    out = tmp_path / "seq2seq"
    train(corpus, out, TrainConfig(kind="seq2seq", max_epochs=8, **TINY))
    (output,) = Paraphraser(out / "best.pt").paraphrase(["Quixote met Zanzibar in Bolognia."],
                                                        DecodeOptions(beam=1))
    assert "<unk>" in output and "quixote" not in output


def test_resume_continues_exactly_where_an_uninterrupted_run_goes(corpus, tmp_path):
    config = TrainConfig(kind="pointer", dropout=0.3, max_epochs=4, **TINY)
    straight, resumed = tmp_path / "straight", tmp_path / "resumed"
    train(corpus, straight, config)
    train(corpus, resumed, TrainConfig(**{**_fields(config), "max_epochs": 2}))
    assert len(_metrics(resumed)) == 2
    train(corpus, resumed, config)
    keys = ("epoch", "train_loss", "valid_loss", "train_tokens")
    assert [[m[k] for k in keys] for m in _metrics(resumed)] == [
        [m[k] for k in keys] for m in _metrics(straight)]
    a, _ = load_model(read_checkpoint(straight / "last.pt"))
    b, _ = load_model(read_checkpoint(resumed / "last.pt"))
    for (name, left), right in zip(a.state_dict().items(), b.state_dict().values(), strict=True):
        assert torch.equal(left, right), name
    # A finished run is found finished; other settings in the same folder are refused.
    assert train(corpus, resumed, config)["epochs"] == 4 and len(_metrics(resumed)) == 4
    with pytest.raises(ParawireError, match="other settings.*hidden"):
        train(corpus, resumed, TrainConfig(**{**_fields(config), "hidden": 8}))


def test_a_time_budget_stops_after_the_epoch_that_spends_it_and_a_larger_one_resumes(
        corpus, tmp_path):
    out = tmp_path / "budget"
    tiny_budget = TrainConfig(kind="pointer", max_epochs=3, max_minutes=1e-6, **TINY)
    summary = train(corpus, out, tiny_budget)
    assert (summary["epochs"], summary["stopped"]) == (1, "max_minutes")
    assert summary["train_seconds"] > 0
    assert train(corpus, out, tiny_budget)["epochs"] == 1 and len(_metrics(out)) == 1
    summary = train(corpus, out, TrainConfig(**{**_fields(tiny_budget), "max_minutes": 0}))
    assert (summary["epochs"], summary["stopped"]) == (3, "max_epochs")
    assert [m["epoch"] for m in _metrics(out)] == [1, 2, 3]


def test_pointer_starts_from_a_pretrained_autoencoder(corpus, tmp_path):
    train(corpus, tmp_path / "ae", TrainConfig(kind="autoencoder", max_epochs=2, **TINY))
    pretrained, vocab = load_model(read_checkpoint(tmp_path / "ae" / "best.pt"))
    assert not pretrained.config.copy and not pretrained.config.attention
    # With a vanishing learning rate one epoch leaves the pre-trained weights in place.
    config = TrainConfig(kind="pointer", max_epochs=1, **{**TINY, "lr": 1e-12})
    train(corpus, tmp_path / "pointer", config, init_from=tmp_path / "ae" / "best.pt")
    pointer, pointer_vocab = load_model(read_checkpoint(tmp_path / "pointer" / "last.pt"))
    assert pointer.config.copy and pointer.config.attention
    assert pointer_vocab.itos == vocab.itos
    for (name, left), right in zip(pretrained.state_dict().items(), pointer.state_dict().values(),
                                   strict=True):
        assert torch.allclose(left, right, atol=1e-6), name
    with pytest.raises(ParawireError, match="same sizes"):
        train(corpus, tmp_path / "other", TrainConfig(kind="pointer", **{**TINY, "hidden": 8}),
              init_from=tmp_path / "ae" / "best.pt")


def test_missing_split_and_foreign_checkpoint_are_one_line_errors(corpus, tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ParawireError, match="has no train.jsonl"):
        train(tmp_path / "empty", tmp_path / "out", TrainConfig(**TINY))
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ParawireError, match="not a parawire checkpoint"):
        Paraphraser(tmp_path / "junk.pt")


def _fields(config: TrainConfig) -> dict:
    return config.model_dump()
