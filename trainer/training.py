"""The training loop: Adam, gradient clipping, early stopping, checkpoints that resume exactly."""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import torch
from pydantic import ConfigDict, field_validator
from tqdm import tqdm

from parawire.config import TrainerConfig, TrainingConfig
from parawire.errors import ParawireError
from parawire.trainer.batching import Encoded, encode_pair, length_batches
from parawire.trainer.checkpoints import (
    Progress,
    load_model,
    progress_of,
    read_checkpoint,
    restore_random_state,
    save_checkpoint,
)
from parawire.trainer.corpus import TokenPair, Vocabulary, autoencoder_pairs, read_split
from parawire.trainer.model import MODEL_KINDS, ModelConfig, PointerGenerator

LAST, BEST, METRICS = "last.pt", "best.pt", "metrics.jsonl"
# Settings a resumed run may change; any other difference means a different run.
RESUMABLE_CHANGES = {"max_epochs", "max_minutes", "patience", "device", "threads"}


class TrainConfig(TrainingConfig):
    """Everything that shapes a training run: the model kind and the [train] settings that
    training reads (defaults and checks from parawire.config)."""

    model_config = ConfigDict(frozen=True)

    kind: str = "pointer"
    # backward: trained target → input on the same corpus (the dual scorer's second model).
    direction: Literal["forward", "backward"] = "forward"

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, kind: str) -> str:
        if kind not in MODEL_KINDS:
            raise ParawireError(f"unknown model {kind!r}; choose one of {', '.join(MODEL_KINDS)}")
        return kind

    @classmethod
    def from_config(cls, config: TrainerConfig, kind: str, direction: str = "forward",
                    **overrides: Any) -> TrainConfig:
        """The [train] section's training settings for one model kind and direction; overrides
        that are None (options not given) keep the config's value."""
        chosen = {key: value for key, value in overrides.items() if value is not None}
        settings = config.model_dump(include=set(TrainingConfig.model_fields))
        return cls(kind=kind, direction=direction, **{**settings, **chosen})


def pick_device(name: str) -> torch.device:
    """'auto' is CUDA when present, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ParawireError(f"device {name!r} asked for but CUDA is not available")
    return torch.device(name)


def set_threads(threads: int) -> None:
    """Use that many CPU threads (0 keeps torch's default)."""
    if threads > 0:
        torch.set_num_threads(threads)


def training_pairs(corpus: Path, split: str, config: TrainConfig) -> list[TokenPair]:
    """A split's pairs as the model trains on them: sentences to themselves for the
    autoencoder, targets to inputs for a backward model."""
    pairs = read_split(corpus, split, config.max_len)
    if config.direction == "backward":
        pairs = [TokenPair(p.target, p.source) for p in pairs]
    return autoencoder_pairs(pairs) if config.kind == "autoencoder" else pairs


@dataclass(slots=True)
class _Run:
    model: PointerGenerator
    vocab: Vocabulary
    optimizer: torch.optim.Optimizer
    scaler: torch.amp.GradScaler
    progress: Progress
    config: TrainConfig


def _recorded(config: TrainConfig, corpus: Path) -> dict[str, Any]:
    return {**config.model_dump(), "corpus": str(corpus.resolve())}


def _check_resumable(stored: dict[str, Any], wanted: dict[str, Any], out: Path) -> None:
    changed = sorted(k for k, v in stored.items() if k not in RESUMABLE_CHANGES and wanted.get(k) != v)
    if changed:
        raise ParawireError(f"{out} holds a run with other settings ({', '.join(changed)}): "
                            "use another --out, or the same settings to resume it")


def _start(corpus: Path, out: Path, config: TrainConfig, init_from: Path | None,
           device: torch.device) -> _Run:
    last = out / LAST
    if last.exists():
        state = read_checkpoint(last)
        _check_resumable(state["train_config"], _recorded(config, corpus), out)
        model, vocab = load_model(state, device)
        run = _new_run(model, vocab, config, device)
        run.optimizer.load_state_dict(state["optimizer"])
        if state["scaler"] is not None:
            run.scaler.load_state_dict(state["scaler"])
        run.progress = progress_of(state)
        if config.max_epochs > run.progress.epoch and run.progress.epochs_without_gain < config.patience:
            run.progress.done = False
        restore_random_state(state)
        return run
    torch.manual_seed(config.seed)
    if init_from is not None:
        base, vocab = load_model(read_checkpoint(init_from))
    else:
        base, vocab = None, Vocabulary.build(read_split(corpus, "train", config.max_len),
                                             config.vocab_size)
    model_config = ModelConfig.for_kind(config.kind, len(vocab), embedding=config.embedding,
                                        hidden=config.hidden, coverage=config.coverage,
                                        dropout=config.dropout)
    model = PointerGenerator(model_config)
    if base is not None:
        if (base.config.embedding, base.config.hidden) != (config.embedding, config.hidden):
            raise ParawireError(f"{init_from} has embedding {base.config.embedding} and hidden "
                                f"{base.config.hidden}; train with the same sizes to start from it")
        model.load_state_dict(base.state_dict())
    return _new_run(model.to(device), vocab, config, device)


def _new_run(model: PointerGenerator, vocab: Vocabulary, config: TrainConfig,
             device: torch.device) -> _Run:
    optimizer = torch.optim.Adam(model.parameters(), lr=config.lr)
    scaler = torch.amp.GradScaler("cuda", enabled=device.type == "cuda")
    return _Run(model, vocab, optimizer, scaler, Progress(), config)


def _autocast(device: torch.device) -> Any:
    if device.type == "cuda":
        return torch.autocast(device_type="cuda", dtype=torch.float16)
    return nullcontext()


def _encode(pairs: list[TokenPair], vocab: Vocabulary, copy: bool) -> list[Encoded]:
    return [encode_pair(p, vocab, copy) for p in pairs if p.source and p.target]


def train_epoch(run: _Run, items: list[Encoded], epoch: int, device: torch.device,
                progress_bar: bool) -> tuple[float, int, float]:
    """One pass over the training items: mean loss per target token, tokens seen, seconds."""
    run.model.train()
    cfg = run.config
    batches = list(length_batches(items, cfg.batch_size, seed=cfg.seed * 100003 + epoch))
    total_loss, total_targets, tokens = 0.0, 0, 0
    started = time.perf_counter()
    bar = tqdm(batches, desc=f"epoch {epoch}", unit="batch", leave=False, disable=not progress_bar)
    for batch in bar:
        batch = batch.to(device)
        with _autocast(device):
            loss_sum, targets = run.model.loss(batch, cfg.coverage_weight)
        run.optimizer.zero_grad(set_to_none=True)
        run.scaler.scale(loss_sum / targets).backward()
        run.scaler.unscale_(run.optimizer)
        torch.nn.utils.clip_grad_norm_(run.model.parameters(), cfg.clip)
        run.scaler.step(run.optimizer)
        run.scaler.update()
        total_loss += float(loss_sum.detach())
        total_targets += targets
        tokens += batch.tokens()
        bar.set_postfix(loss=f"{total_loss / total_targets:.3f}")
    return total_loss / max(1, total_targets), tokens, time.perf_counter() - started


@torch.no_grad()
def mean_loss(model: PointerGenerator, items: list[Encoded], batch_size: int,
              device: torch.device, coverage_weight: float = 1.0) -> float:
    """Mean loss per target token over items (the validation criterion)."""
    model.eval()
    total, targets = 0.0, 0
    for batch in length_batches(items, batch_size, seed=None):
        with _autocast(device):
            loss_sum, count = model.loss(batch.to(device), coverage_weight)
        total += float(loss_sum)
        targets += count
    return total / max(1, targets)


def _keep_metrics_up_to(path: Path, epoch: int) -> None:
    if not path.exists():
        return
    lines = [line for line in path.read_text().splitlines()
             if line.strip() and json.loads(line)["epoch"] <= epoch]
    path.write_text("".join(line + "\n" for line in lines))


def _out_of_time(progress: Progress, config: TrainConfig) -> bool:
    return 0 < config.max_minutes * 60 <= progress.seconds


def _stop_reason(progress: Progress, config: TrainConfig) -> str:
    """Why training stopped: patience (early stopping), max_epochs or max_minutes."""
    if progress.epochs_without_gain >= config.patience:
        return "patience"
    return "max_minutes" if _out_of_time(progress, config) else "max_epochs"


def train(corpus: Path, out: Path, config: TrainConfig, init_from: Path | None = None,
          progress_bar: bool = False) -> dict[str, Any]:
    """Train (or resume, or find finished) the run in `out`; returns its summary.

    Writes out/last.pt after every epoch, out/best.pt when validation loss improves, and one
    JSON line per epoch to out/metrics.jsonl. No epoch starts once config.max_minutes of
    training (resumed runs' epochs included) have passed; a larger budget resumes the run.
    """
    set_threads(config.threads)
    device = pick_device(config.device)
    train_pairs = training_pairs(corpus, "train", config)
    valid_pairs = training_pairs(corpus, "valid", config)
    if not train_pairs:
        raise ParawireError(f"{corpus}/train.jsonl holds no pairs")
    if not valid_pairs:
        raise ParawireError(f"{corpus}/valid.jsonl holds no pairs: early stopping needs a "
                            "validation split")
    run = _start(corpus, out, config, init_from, device)
    copy = run.model.config.copy
    train_items = _encode(train_pairs, run.vocab, copy)
    valid_items = _encode(valid_pairs, run.vocab, copy)
    metrics = out / METRICS
    _keep_metrics_up_to(metrics, run.progress.epoch)
    train_config = _recorded(config, corpus)
    progress = run.progress
    while not progress.done and progress.epoch < config.max_epochs and not _out_of_time(
            progress, config):
        epoch = progress.epoch + 1
        started = time.perf_counter()
        train_loss, tokens, seconds = train_epoch(run, train_items, epoch, device, progress_bar)
        valid_loss = mean_loss(run.model, valid_items, config.batch_size, device,
                               config.coverage_weight)
        progress.epoch = epoch
        progress.seconds += time.perf_counter() - started
        if valid_loss < progress.best_valid:
            progress.best_valid, progress.best_epoch, progress.epochs_without_gain = valid_loss, epoch, 0
        else:
            progress.epochs_without_gain += 1
        progress.done = (progress.epochs_without_gain >= config.patience
                         or epoch >= config.max_epochs)
        if progress.best_epoch == epoch:
            save_checkpoint(out / BEST, run.model, run.vocab, config.kind, train_config, progress)
        save_checkpoint(out / LAST, run.model, run.vocab, config.kind, train_config, progress,
                        run.optimizer, run.scaler)
        with metrics.open("a") as handle:
            handle.write(json.dumps({
                "epoch": epoch, "train_loss": train_loss, "valid_loss": valid_loss,
                "train_tokens": tokens, "seconds": round(seconds, 3),
                "tokens_per_s": round(tokens / seconds, 1) if seconds else None,
                "best_epoch": progress.best_epoch, "device": device.type,
            }) + "\n")
    return {
        "out": str(out), "kind": config.kind, "epochs": progress.epoch,
        "best_epoch": progress.best_epoch, "best_valid_loss": progress.best_valid,
        "stopped_early": progress.epochs_without_gain >= config.patience,
        "stopped": _stop_reason(progress, config), "train_seconds": round(progress.seconds, 1),
        "vocab_size": len(run.vocab), "train_examples": len(train_items),
        "valid_examples": len(valid_items), "device": device.type,
        "checkpoint": str(out / BEST),
    }
