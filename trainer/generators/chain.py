"""Chains of candidate sources (e.g. WordNet synonyms, then the model's beam; a round trip,
then synonyms): each step's candidates become the next step's inputs, and the last step's
outputs are the chain's candidates, their origin naming the whole chain ("wordnet>beam")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from parawire.trainer.generators.api import Candidate, Generator, Source
from parawire.trainer.generators.metrics import words
from parawire.trainer.generators.overgen import interleave

SEPARATOR = ">"


def as_source(candidate: Candidate, original: Source) -> Source:
    """A candidate as the next step's input: its text, the original's language, and those of
    the original's names that it still holds (numbers are read from its own tokens)."""
    return Source.from_text(candidate.text, original.language, original.proper_nouns)


class Chain:
    """Generators applied one after the other; at each step every input gets an even share
    (at least one) of the n candidates, and each step's outputs are deduplicated (the original
    input's words left out) and cut to n."""

    def __init__(self, steps: Sequence[Generator]) -> None:
        if len(steps) < 2:
            raise ValueError("a chain needs two steps or more")
        self.steps = list(steps)
        self.name = SEPARATOR.join(step.name for step in self.steps)

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n candidates of the last step (origin: the chain's name)."""
        return self.generate_batch([source], n, seed)[0]

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Each source's chain outputs; every step runs once over the whole batch's inputs."""
        current = self.steps[0].generate_batch(sources, n, seed)
        for step in self.steps[1:]:
            inputs = [(k, as_source(c, sources[k])) for k, cands in enumerate(current) for c in cands]
            share = {k: max(1, n // max(1, len(cands))) for k, cands in enumerate(current)}
            # one batch per share size, so that a step with a batched form runs once per size
            outputs: dict[int, list[Candidate]] = {}
            for size in sorted(set(share.values())):
                chosen = [i for i, (k, _) in enumerate(inputs) if share[k] == size]
                made = step.generate_batch([inputs[i][1] for i in chosen], size, seed)
                outputs.update(zip(chosen, made, strict=True))
            grouped: list[list[list[Candidate]]] = [[] for _ in sources]
            for i, (k, _) in enumerate(inputs):
                grouped[k].append(outputs[i])
            current = [distinct(sources[k], interleave(groups), n) for k, groups in enumerate(grouped)]
        return [[replace(c, origin=self.origin(c)) for c in cands] for cands in current]

    def origin(self, candidate: Candidate) -> str:
        """The chain's name, with the last step's detail (e.g. "wordnet>apertium:eng-spa-noisy")."""
        _, colon, detail = candidate.origin.partition(":")
        return f"{self.name}{colon}{detail}"


def distinct(source: Source, candidates: Sequence[Candidate], n: int) -> list[Candidate]:
    """The first n candidates whose lower-cased words are new (the input's own left out)."""
    seen = {words(source.tokens)}
    out = []
    for candidate in candidates:
        key = words(candidate.tokens)
        if key and key not in seen:
            seen.add(key)
            out.append(candidate)
    return out[:n]
