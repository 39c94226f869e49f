"""Checkpoints: model, vocabulary, optimiser and random state, written atomically."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from parawire.errors import ParawireError
from parawire.trainer.corpus import SPECIALS, Vocabulary
from parawire.trainer.model import ModelConfig, PointerGenerator

CHECKPOINT_FORMAT = 1


@dataclass(slots=True)
class Progress:
    """Where a training run stands after a finished epoch."""

    epoch: int = 0
    best_valid: float = float("inf")
    best_epoch: int = 0
    epochs_without_gain: int = 0
    done: bool = False
    seconds: float = 0.0  # training and validation time of the epochs so far


def save_checkpoint(path: Path, model: PointerGenerator, vocab: Vocabulary, kind: str,
                    train_config: dict[str, Any], progress: Progress,
                    optimizer: torch.optim.Optimizer | None = None,
                    scaler: torch.amp.GradScaler | None = None) -> None:
    """Write everything needed to decode with the model or to resume its training."""
    state = {
        "format": CHECKPOINT_FORMAT,
        "kind": kind,
        "model_config": model.config.as_dict(),
        "train_config": train_config,
        "vocab": vocab.itos,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict() if optimizer else None,
        "scaler": scaler.state_dict() if scaler and scaler.is_enabled() else None,
        "progress": asdict(progress),
        "rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    torch.save(state, partial)
    os.replace(partial, path)


def read_checkpoint(path: Path) -> dict[str, Any]:
    """The raw checkpoint dictionary; a missing or foreign file is a one-line error."""
    if not path.is_file():
        raise ParawireError(f"checkpoint not found: {path}")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises several unrelated types on a foreign file
        raise ParawireError(f"{path}: not a parawire checkpoint ({type(exc).__name__})") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise ParawireError(f"{path}: not a parawire checkpoint (format {CHECKPOINT_FORMAT})")
    return state


def progress_of(state: dict[str, Any]) -> Progress:
    """The training progress stored in a checkpoint."""
    return Progress(**state["progress"])


def load_model(state: dict[str, Any], device: torch.device | str = "cpu") -> tuple[
        PointerGenerator, Vocabulary]:
    """The model (in eval mode) and vocabulary of a checkpoint."""
    model = PointerGenerator(ModelConfig(**state["model_config"]))
    model.load_state_dict(state["model"])
    vocab = Vocabulary(state["vocab"][len(SPECIALS):])
    if vocab.itos != state["vocab"]:
        raise ParawireError("checkpoint vocabulary does not start with the special tokens")
    return model.to(device).eval(), vocab


def restore_random_state(state: dict[str, Any]) -> None:
    """Put torch's random generators back where the checkpoint left them."""
    torch.set_rng_state(state["rng"])
    if state.get("cuda_rng") is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda_rng"])
