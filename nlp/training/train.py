"""Train a spaCy pipeline for one language from CoNLL-U treebanks, on the CPU."""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parawire.config import PipelineTrainingConfig
from parawire.errors import ParawireError
from parawire.nlp.training.boundaries import choose_boundaries
from parawire.nlp.training.corpus import read_conllu_docs, sentence_count, write_docbin
from parawire.nlp.training.spacy_config import training_config

# The training files kept next to the model in its folder, and the meta.json key of what
# parawire records about the training (the export's datasheet reads it).
WORK_DIR = "training"
META_KEY = "parawire"


@dataclass(frozen=True)
class TrainedPipeline:
    """A pipeline written by train_pipeline, with its dev scores."""

    path: Path
    language: str
    train_sentences: int
    dev_sentences: int
    minutes: float
    stopped: str
    dev_scores: dict[str, float] = field(default_factory=dict)
    sentence_boundaries: dict[str, Any] = field(default_factory=dict)  # BoundaryChoice's


def train_pipeline(language: str, train: Sequence[Path], dev: Path | None, out: Path,
                   options: PipelineTrainingConfig, max_minutes: float | None = None,
                   log: Any = sys.stdout) -> TrainedPipeline:
    """Train `language`'s pipeline on the `train` treebanks into `out` (a folder spacy.load
    and nlp.models.<language> take), choosing the best model on `dev` (or, without one, on
    every k-th document held out of the training data, k from options.dev_fraction), and
    its sentence boundaries on the same dev data (boundaries.choose_boundaries).

    Re-running replaces the pipeline in `out`; a folder holding anything else is refused."""
    _check_language(language)
    _check_out(out)
    budget = options.max_minutes if max_minutes is None else max_minutes
    work = out / WORK_DIR
    for stale in ("model-best", "model-last"):  # an earlier run's checkpoints
        shutil.rmtree(work / stale, ignore_errors=True)
    train_docs = read_conllu_docs(train, options.sentences_per_doc)
    if dev is not None:
        dev_docs = read_conllu_docs([dev], options.sentences_per_doc)
    else:
        train_docs, dev_docs = _hold_out(train_docs, options.dev_fraction)
    write_docbin(train_docs, work / "train.spacy")
    write_docbin(dev_docs, work / "dev.spacy")
    config = training_config(language, work / "train.spacy", work / "dev.spacy", options, budget)
    config.to_disk(work / "config.cfg")
    started = time.monotonic()
    stopped = _run_spacy_training(config, work, log)
    minutes = (time.monotonic() - started) / 60
    best = work / "model-best" if (work / "model-best" / "meta.json").is_file() else work / "model-last"
    _install(best, out)
    boundaries = choose_boundaries(out, dev_docs)
    print(f"sentence boundaries: {boundaries.by} (dev sentence F: parser "
          f"{boundaries.parser_f}, sentencizer {boundaries.sentencizer_f})", file=log)
    meta = _record(out, {
        "train": [str(path) for path in train], "dev": str(dev) if dev else "held out of train",
        "train_sentences": sentence_count(train_docs), "dev_sentences": sentence_count(dev_docs),
        "minutes": round(minutes, 2), "stopped": stopped,
        "sentence_boundaries": boundaries.as_dict(),
    }, language)
    return TrainedPipeline(
        path=out, language=language, train_sentences=meta[META_KEY]["train_sentences"],
        dev_sentences=meta[META_KEY]["dev_sentences"], minutes=minutes, stopped=stopped,
        dev_scores={k: v for k, v in meta.get("performance", {}).items()
                    if isinstance(v, float) and not k.endswith("_loss")},
        sentence_boundaries=boundaries.as_dict(),
    )


def _run_spacy_training(config: Any, work: Path, log: Any) -> str:
    """spaCy's initialise + training loop on the CPU; returns why it stopped."""
    from spacy.training.initialize import init_nlp
    from spacy.training.loop import train

    from parawire.nlp.training.budget import BudgetSpent

    nlp = init_nlp(config, use_gpu=-1)
    try:
        train(nlp, work, use_gpu=-1, stdout=log, stderr=log)
    except BudgetSpent as exc:
        return str(exc)
    return "converged or reached max_epochs"


def _install(best: Path, out: Path) -> None:
    """Copy the chosen model's files into `out` (replacing those of an earlier run)."""
    for item in best.iterdir():
        target = out / item.name
        if target.is_dir():
            shutil.rmtree(target)
        if item.is_dir():
            shutil.copytree(item, target)
        else:
            shutil.copy2(item, target)


def _record(out: Path, training: dict[str, Any], language: str) -> dict[str, Any]:
    """Name the pipeline and record its training data in meta.json."""
    path = out / "meta.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["name"] = f"parawire_{language}_ud"
    meta["sources"] = [{"name": Path(name).name} for name in training["train"]]
    meta[META_KEY] = training
    path.write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return meta


def _hold_out(docs: list, fraction: float) -> tuple[list, list]:
    """Every k-th doc as dev data, the others to train on (k = round(1 / fraction))."""
    step = max(2, round(1 / fraction))
    dev = docs[step - 1::step]
    if not dev:
        raise ParawireError("too little training data to hold out a dev part: give --dev")
    return [doc for k, doc in enumerate(docs) if k % step != step - 1], dev


def _check_language(language: str) -> None:
    import spacy

    try:
        spacy.util.get_lang_class(language)
    except ImportError:
        raise ParawireError(f"spaCy has no language {language!r} (an ISO 639-1 code)") from None


def _check_out(out: Path) -> None:
    """Refuse an output folder that holds something other than a pipeline trained here
    (one has its training folder)."""
    if out.exists() and not out.is_dir():
        raise ParawireError(f"--out {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / WORK_DIR).is_dir():
        raise ParawireError(f"--out {out} holds files that are not a parawire pipeline; "
                            "give an empty or new folder")
