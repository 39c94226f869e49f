"""Scorers of candidates under the trained models (lower is better for all of them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parawire.trainer.generators.api import Candidate, Scorer, Source

if TYPE_CHECKING:
    from parawire.trainer.inference import Paraphraser


class ForwardNLL:
    """Mean NLL per token of the candidate given the input, under the forward model."""

    name = "forward_nll"

    def __init__(self, model: Paraphraser) -> None:
        self.model = model

    def score(self, source: Source, candidates: Sequence[Candidate]) -> list[float]:
        """One mean NLL per candidate (inf for an empty one)."""
        src = source.model_tokens
        return self.model.mean_nll([(src, tuple(t.casefold() for t in c.tokens)) for c in candidates])


class BackwardNLL:
    """Mean NLL per token of the input given the candidate, under the backward model (trained
    target → input): how well the candidate keeps what the input says."""

    name = "backward_nll"

    def __init__(self, model: Paraphraser) -> None:
        self.model = model

    def score(self, source: Source, candidates: Sequence[Candidate]) -> list[float]:
        """One mean NLL per candidate (inf for an empty one)."""
        src = source.model_tokens
        return self.model.mean_nll([(tuple(t.casefold() for t in c.tokens), src) for c in candidates])


class SumScorer:
    """The sum of other scorers (dual score = forward NLL + backward NLL); each part's score is
    also written into the candidates' scores under its name."""

    def __init__(self, name: str, parts: Sequence[Scorer]) -> None:
        self.name = name
        self.parts = list(parts)

    def score(self, source: Source, candidates: Sequence[Candidate]) -> list[float]:
        """Sum of the parts' scores per candidate."""
        totals = [0.0] * len(candidates)
        for part in self.parts:
            for index, (candidate, value) in enumerate(
                    zip(candidates, part.score(source, candidates), strict=True)):
                candidate.scores[part.name] = value
                totals[index] += value
        return totals
