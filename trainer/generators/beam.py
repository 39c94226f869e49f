"""The beam generator: the n best finished hypotheses of one beam search."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from parawire.trainer.corpus import detokenize
from parawire.trainer.generators.api import Candidate, OneByOne, Source
from parawire.trainer.generators.casing import restore_case

if TYPE_CHECKING:
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.inference import Paraphraser


class BeamGenerator(OneByOne):
    """n-best beam search with the forward model (beam width at least n); the seed is unused:
    beam search is deterministic."""

    name = "beam"

    def __init__(self, model: Paraphraser, options: DecodeOptions, restore: bool = True) -> None:
        self.model = model
        self.options = options
        self.restore = restore

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """The n best distinct finished hypotheses, scored by length-normalised log-probability."""
        options = replace(self.options, beam=max(self.options.beam, n))
        out: list[Candidate] = []
        seen: set[tuple[str, ...]] = set()
        for tokens, score in self.model.nbest(source.model_tokens, options):
            cased = restore_case(tokens, source) if self.restore else tuple(tokens)
            if cased in seen:
                continue
            seen.add(cased)
            out.append(Candidate(detokenize(cased), cased, self.name, {"beam_log_prob": score}))
            if len(out) == n:
                break
        return out
