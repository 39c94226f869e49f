"""The spaCy training config of a treebank pipeline, from spaCy's own quick-start template."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parawire.config import PipelineTrainingConfig

# Trainable components: UPOS + features, edit-tree lemmas, dependencies (and with them the
# sentence boundaries and noun chunks); the tokenizer is the language's default one.
COMPONENTS = ("morphologizer", "trainable_lemmatizer", "parser")


def training_config(language: str, train: Path, dev: Path, options: PipelineTrainingConfig,
                    max_minutes: float) -> Any:
    """spaCy's CPU config for `language` and COMPONENTS, over the DocBin files, with the
    parawire options (network size, epochs, patience, evaluation frequency, time budget)."""
    from spacy.cli.init_config import init_config

    config = init_config(lang=language, pipeline=list(COMPONENTS), optimize="efficiency",
                         gpu=False, pretraining=False, silent=True)
    config["paths"]["train"] = str(train)
    config["paths"]["dev"] = str(dev)
    config["system"]["seed"] = options.seed
    encode = config["components"]["tok2vec"]["model"]["encode"]
    encode["width"] = options.width
    encode["depth"] = options.depth
    training = config["training"]
    training["seed"] = options.seed
    training["max_epochs"] = options.max_epochs
    training["patience"] = options.patience
    training["eval_frequency"] = options.eval_frequency
    training["before_update"] = {"@callbacks": "parawire.time_budget.v1", "minutes": max_minutes}
    training["logger"] = {"@loggers": "spacy.ConsoleLogger.v1", "progress_bar": True}
    config["components"]["trainable_lemmatizer"]["min_tree_freq"] = options.min_tree_freq
    return config
