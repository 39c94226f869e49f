"""The train stage, in the stage contract's shape (PyTorch is imported only when it runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from parawire.config import Settings
from parawire.stage import Counts, Scope, Stage, option

_CONFIG = "[default: train.{}]"


class TrainScope(Scope):
    """One training run: the model kind, the corpus, the run folder, and overrides of the
    [train] settings (None: the setting)."""

    kind: Literal["pointer", "seq2seq", "autoencoder"] = option(
        "pointer", "autoencoder: pre-training without attention or copying, for --init-from.",
        flag="--model")
    direction: Literal["forward", "backward"] = option(
        "forward", "backward: learn target → input on the same corpus (its own --out), the "
        "second model of sample-cluster's dual score.")
    corpus: str = option(help="A folder written by `parawire export --format jsonl`.", path=True)
    out: str = option(help="Run folder: checkpoints and metrics; an unfinished run there is "
                           "resumed.", path=True)
    init_from: str | None = option(
        None, "Start from this checkpoint's weights and vocabulary (a pre-trained autoencoder).",
        path=True)
    coverage: bool | None = option(None, "Coverage loss " + _CONFIG.format("coverage"),
                                   flag="--coverage/--no-coverage")
    max_epochs: int | None = option(None, "Most epochs " + _CONFIG.format("max_epochs"),
                                    flag="--epochs", ge=1)
    max_minutes: float | None = option(
        None, "No new epoch after this many minutes of training, resumed epochs included "
        "(0: no limit) " + _CONFIG.format("max_minutes"), ge=0)
    patience: int | None = option(None, "Early-stopping patience, in epochs.", ge=1)
    batch_size: int | None = option(None, "Pairs per batch.", ge=1)
    vocab_size: int | None = option(None, "Vocabulary of the train split.", ge=5)
    embedding: int | None = option(None, "Word embedding size.", ge=1)
    hidden: int | None = option(None, "LSTM hidden size.", ge=1)
    lr: float | None = option(None, "Adam learning rate.", gt=0)
    seed: int | None = option(None, "Random seed.")
    device: str | None = option(None, "auto, cpu, cuda or cuda:N " + _CONFIG.format("device"))
    threads: int | None = option(None, "CPU threads (0: torch's default).", ge=0)
    progress: bool = option(True, "Progress bar.", flag="--progress/--no-progress")


def train(settings: Settings, scope: TrainScope) -> Counts:
    """Train a generator on an exported corpus, or resume the unfinished run in `out`."""
    from parawire.trainer.training import TrainConfig
    from parawire.trainer.training import train as train_run

    run_fields = {"kind", "direction", "corpus", "out", "init_from", "progress"}
    overrides = scope.model_dump(exclude=run_fields)  # None: the [train] setting
    config = TrainConfig.from_config(settings.train, scope.kind, scope.direction, **overrides)
    return train_run(Path(scope.corpus), Path(scope.out), config,
                     Path(scope.init_from) if scope.init_from else None,
                     progress_bar=scope.progress)


TRAIN = Stage(name="train",
              summary="Train a paraphrase generator on an exported corpus ([train] settings).",
              scope=TrainScope, work=train)
