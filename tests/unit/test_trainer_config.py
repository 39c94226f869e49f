"""Training and decoding settings take their defaults from [train] (TrainerConfig)."""

import pytest

pytest.importorskip("torch")

from parawire.config import TrainerConfig
from parawire.errors import ParawireError
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.training import TrainConfig


def test_train_config_defaults_are_the_train_sections():
    assert TrainConfig() == TrainConfig.from_config(TrainerConfig(), "pointer")


def test_train_config_from_config_keeps_the_config_where_an_override_is_none():
    config = TrainerConfig(hidden=64, lr=0.01, beam=3)
    train = TrainConfig.from_config(config, "seq2seq", hidden=None, max_epochs=4)
    assert (train.kind, train.hidden, train.lr, train.max_epochs) == ("seq2seq", 64, 0.01, 4)
    assert "beam" not in train.model_dump()


def test_unknown_model_kind_is_a_one_line_error():
    with pytest.raises(ParawireError, match="unknown model 'transformer'"):
        TrainConfig.from_config(TrainerConfig(), "transformer")


def test_decode_options_from_config():
    config = TrainerConfig(beam=3, max_len=20, length_penalty=0.5)
    assert DecodeOptions.from_config(config) == DecodeOptions(beam=3, max_len=20, length_penalty=0.5)
    assert DecodeOptions.from_config(config, beam=1).beam == 1
    assert DecodeOptions() == DecodeOptions.from_config(TrainerConfig())


def test_backward_direction_trains_targets_to_inputs(tmp_path):
    from parawire.trainer.training import training_pairs
    from tests.factories import write_paraphrase_corpus

    write_paraphrase_corpus(tmp_path)
    forward = training_pairs(tmp_path, "train", TrainConfig())
    backward = training_pairs(tmp_path, "train", TrainConfig(direction="backward"))
    assert [(p.target, p.source) for p in forward] == [(p.source, p.target) for p in backward]
    assert forward[0].source != forward[0].target
    assert TrainConfig.from_config(TrainerConfig(), "pointer", "backward").direction == "backward"
