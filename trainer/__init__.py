"""Training paraphrase generators on exported corpora, and using them.

PyTorch is imported on first use of a name that needs it (train, evaluate, Paraphraser,
TrainConfig, DecodeOptions, and building a generator), so the rest of parawire runs without it."""

from importlib import import_module
from typing import Any

from parawire.trainer.corpus import SPECIALS, TokenPair, Vocabulary, read_pairs, tokenize
from parawire.trainer.generators import (
    Candidate,
    Generator,
    Models,
    Scorer,
    Source,
    build_generator,
    generator_names,
)
from parawire.trainer.generators.augment import augmented, read_rows
from parawire.trainer.generators.evaluation import (
    Example,
    Judges,
    as_jsonl_record,
    evaluate_generators,
    read_examples,
)
from parawire.trainer.stage import TRAIN, TrainScope

_NEEDS_TORCH = {
    "DecodeOptions": "parawire.trainer.decoding",
    "Paraphraser": "parawire.trainer.inference",
    "TrainConfig": "parawire.trainer.training",
    "evaluate": "parawire.trainer.evaluation",
    "train": "parawire.trainer.training",
}


def __getattr__(name: str) -> Any:
    if name in _NEEDS_TORCH:
        return getattr(import_module(_NEEDS_TORCH[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SPECIALS", "TRAIN", "Candidate", "DecodeOptions", "Example", "Generator", "Judges",
           "Models", "Paraphraser", "Scorer", "Source", "TokenPair", "TrainConfig", "TrainScope",
           "Vocabulary", "as_jsonl_record", "augmented", "build_generator", "evaluate", "evaluate_generators",
           "generator_names", "read_examples", "read_pairs", "read_rows", "tokenize", "train"]
