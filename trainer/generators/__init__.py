"""The generator layer: one candidate API (Source, Candidate, Generator, Scorer), generators
built by name, and the pure selection algorithms they share. PyTorch is imported only when a
generator is built."""

from parawire.trainer.generators.api import Candidate, Generator, OneByOne, Scorer, Source
from parawire.trainer.generators.registry import Models, build_generator, generator_names, register

__all__ = ["Candidate", "Generator", "Models", "OneByOne", "Scorer", "Source", "build_generator",
           "generator_names", "register"]
