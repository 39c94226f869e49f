"""Generators built by name from the settings and the loaded models."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.trainer.generators.api import Generator
from parawire.trainer.generators.evaluation import Similarity

if TYPE_CHECKING:
    from parawire.trainer.inference import Paraphraser


@dataclass(slots=True)
class Models:
    """The trained models a generator may use: forward (input → target) and, for dual
    scoring, backward (target → input)."""

    forward: Paraphraser
    backward: Paraphraser | None = None
    # Sentence-embedding cosine of text pairs (the CLI passes the aligner's USE cosine).
    similarity: Similarity | None = None

    @classmethod
    def load(cls, forward: Path, backward: Path | None = None, device: str = "auto",
             threads: int = 0) -> Models:
        """Models from checkpoints written by `parawire train` (backward: --direction backward)."""
        from parawire.trainer.inference import Paraphraser

        models = cls(Paraphraser(forward, device, threads),
                     Paraphraser(backward, device, threads) if backward else None)
        for path, model, wanted in [(forward, models.forward, "forward"),
                                    (backward, models.backward, "backward")]:
            if model is not None and model.direction != wanted:
                raise ParawireError(f"{path} is a {model.direction} model; a {wanted} one is needed "
                                    f"here (parawire train --direction {wanted})")
        return models


Factory = Callable[[Models, Settings], Generator]
_FACTORIES: dict[str, Factory] = {}


def register(name: str) -> Callable[[Factory], Factory]:
    """Decorator: make `name` build a generator with this factory."""
    def add(factory: Factory) -> Factory:
        _FACTORIES[name] = factory
        return factory
    return add


def generator_names() -> list[str]:
    """Every registered generator name, sorted."""
    return sorted(_FACTORIES)


def build_generator(name: str, models: Models, settings: Settings) -> Generator:
    """The generator registered as `name`, over these models and settings."""
    if name not in _FACTORIES:
        raise ParawireError(f"unknown generator {name!r}; choose one of {', '.join(generator_names())}")
    return _FACTORIES[name](models, settings)


@register("beam")
def _beam(models: Models, settings: Settings) -> Generator:
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.generators.beam import BeamGenerator

    return BeamGenerator(models.forward, DecodeOptions.from_config(settings.train),
                         settings.train.restore_case)


@register("sample-cluster")
def _sample_cluster(models: Models, settings: Settings) -> Generator:
    from parawire.trainer.corpus import read_split
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.generators.sample_cluster import (
        ConstrainedSampler,
        SampleCluster,
        calibrate_threshold,
    )
    from parawire.trainer.generators.scorers import BackwardNLL, ForwardNLL, SumScorer

    cfg = settings.generate
    forward, backward = models.forward, models.backward
    options = DecodeOptions.from_config(settings.train)
    sampler = ConstrainedSampler(forward, options, cfg, settings.train.restore_case)
    parts = [ForwardNLL(forward)] + ([BackwardNLL(backward)] if backward else [])
    threshold = cfg.score_threshold
    if not threshold:
        if not (forward.corpus / "valid.jsonl").is_file():
            raise ParawireError(f"sample-cluster sets its score threshold on the validation split "
                                f"of the forward model's corpus, and {forward.corpus}/valid.jsonl "
                                "is missing: set generate.score_threshold instead")
        pairs = read_split(forward.corpus, "valid", forward.max_len)[:cfg.calibration_pairs]
        threshold = calibrate_threshold(forward, backward, [(p.source, p.target) for p in pairs],
                                        cfg.score_quantile)
    return SampleCluster(sampler, SumScorer("dual", parts), threshold, cfg)


@register("dips")
def _dips(models: Models, settings: Settings) -> Generator:
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.generators.dips import DipsGenerator

    return DipsGenerator(models.forward, DecodeOptions.from_config(settings.train),
                         settings.generate.dips, settings.train.restore_case)


SOURCE_NAMES = ("beam", "beam-blocked", "backward", "sample", "dips", "wordnet", "round-trip",
                "apertium")


def source_generators(names: list[str], models: Models,
                      settings: Settings) -> tuple[list[Generator], dict[str, str]]:
    """The candidate sources of a composite generator by name (see SOURCE_NAMES; "a>b" chains
    sources, see chain), and the reason each one that cannot run here is skipped."""
    from parawire.trainer.generators.chain import SEPARATOR, Chain

    built: list[Generator] = []
    skipped: dict[str, str] = {}
    for name in names:
        steps = name.split(SEPARATOR)
        for step in steps:
            if step not in SOURCE_NAMES:
                raise ParawireError(f"unknown candidate source {step!r} in generate.overgen/rank."
                                    f"sources; choose from {', '.join(SOURCE_NAMES)} (a>b chains them)")
        made: list[Generator] = []
        for step in steps:
            try:
                made.append(_source(step, models, settings))
            except ParawireError as error:
                skipped[name] = f"{step}: {error}" if len(steps) > 1 else str(error)
                break
        else:
            built.append(made[0] if len(made) == 1 else Chain(made))
    return built, skipped


def _source(name: str, models: Models, settings: Settings) -> Generator:
    """One candidate source by name; a ParawireError says why it cannot run here."""
    from dataclasses import replace

    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.generators.apertium import load_apertium
    from parawire.trainer.generators.beam import BeamGenerator
    from parawire.trainer.generators.roundtrip import RoundTrip, load_translator
    from parawire.trainer.generators.sample_cluster import ConstrainedSampler
    from parawire.trainer.generators.wordnet import SynonymGenerator, wordnet_at

    cfg = settings.generate
    options = DecodeOptions.from_config(settings.train)
    if name == "sample":
        return ConstrainedSampler(models.forward, options, cfg, settings.train.restore_case)
    if name == "round-trip":
        return RoundTrip(load_translator())
    if name == "apertium":
        return load_apertium(cfg.overgen.apertium_pairs)
    if name == "wordnet":
        return SynonymGenerator(wordnet_at(str(cfg.overgen.wordnet_dir)), cfg.overgen.synonym_fraction)
    if name == "beam-blocked":
        blocked = BeamGenerator(models.forward, replace(
            options, block_source_ngrams=cfg.rank.block_source_ngrams), settings.train.restore_case)
        blocked.name = name
        return blocked
    if name == "backward":
        if models.backward is None:
            raise ParawireError("no backward model (--backward)")
        backward = BeamGenerator(models.backward, options, settings.train.restore_case)
        backward.name = name
        return backward
    return build_generator(name, models, settings)  # beam, dips


def _similarity(models: Models, name: str) -> Similarity:
    if models.similarity is None:
        raise ParawireError(f"{name} prunes by sentence-embedding cosine: the models need a "
                            "similarity (parawire paraphrase wires the aligner's USE cosine)")
    return models.similarity


@register("overgen")
def _overgen(models: Models, settings: Settings) -> Generator:
    from parawire.trainer.generators.overgen import OverGenerate
    from parawire.trainer.generators.prune import Thresholds
    from parawire.trainer.generators.scorers import BackwardNLL

    cfg = settings.generate.overgen
    sources, skipped = source_generators(cfg.sources, models, settings)
    return OverGenerate(sources, cfg.per_source, _similarity(models, "overgen"),
                        Thresholds(cfg.irrelevant, cfg.duplicate, cfg.max_backward_nll),
                        BackwardNLL(models.backward) if models.backward else None, skipped)


@register("rank")
def _rank(models: Models, settings: Settings) -> Generator:
    from parawire.trainer.generators.lm import language_model
    from parawire.trainer.generators.rank import Bars, RankMany
    from parawire.trainer.generators.scorers import BackwardNLL

    cfg = settings.generate.rank
    sources, skipped = source_generators(cfg.sources, models, settings)
    lm = language_model(models.forward.corpus, cfg.lm_order, cfg.lm_sentences)
    return RankMany(sources, cfg.per_source, lm, _similarity(models, "rank"),
                    Bars(cfg.min_one_minus_bleu, cfg.fluency_margin, cfg.min_cosine),
                    BackwardNLL(models.backward) if models.backward else None, skipped)
