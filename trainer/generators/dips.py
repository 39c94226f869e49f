"""DiPS (Kumar et al. 2019): in `final` mode (the released code's practice) a wide n-best beam,
then the greedy submodular choice of k diverse yet faithful hypotheses (see submodular for F);
in `per-step` mode (the paper) the same choice of the live hypotheses at each step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from parawire.config import DipsConfig
from parawire.trainer.corpus import detokenize
from parawire.trainer.generators.api import Candidate, OneByOne, Source
from parawire.trainer.generators.casing import restore_case
from parawire.trainer.generators.submodular import Objective, greedy

if TYPE_CHECKING:
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.inference import Paraphraser


def mean_embedding(model: Paraphraser, tokens: Sequence[str]) -> list[float]:
    """The mean of the model's own input embeddings of the tokens it knows (zeros when it knows
    none): a sentence vector in whatever language the model was trained on."""
    table = model.model.embedding.weight
    ids = [model.vocab.stoi[t] for t in tokens if t in model.vocab.stoi]
    if not ids:
        return [0.0] * table.size(1)
    import torch

    with torch.no_grad():
        return table[torch.tensor(ids, device=table.device)].mean(dim=0).tolist()


def keeping_names(source: Source, pool: list[tuple[tuple[str, ...], float]],
                  policy: str = "all") -> list[tuple[tuple[str, ...], float]]:
    """The hypotheses (model tokens, pool order) that policy "all" keeps: those that keep every
    name and number of the input, however few (none when no hypothesis does: a paraphrase
    that loses a name says something else); "most": those that keep the most of them;
    "off": the whole pool."""
    if policy == "off" or not pool:
        return pool
    required = set(source.proper_nouns) | set(source.numbers)
    kept = [len(required & set(tokens)) for tokens, _ in pool]
    bar = len(required) if policy == "all" else max(kept)
    return [h for h, count in zip(pool, kept, strict=True) if count == bar]


class DipsGenerator(OneByOne):
    """k of the distinct finished hypotheses of a beam of config.beam, chosen greedily by
    λ·fidelity + (1 − λ)·diversity; the seed is unused (beam search is deterministic)."""

    name = "dips"

    def __init__(self, model: Paraphraser, options: DecodeOptions, config: DipsConfig,
                 restore: bool = True) -> None:
        self.model = model
        self.options = replace(options, beam=config.beam if config.mode == "final" else config.step_beam)
        self.config = config
        self.restore = restore

    def hypotheses(self, source: Source) -> list[tuple[tuple[str, ...], float]]:
        """Distinct non-empty finished hypotheses (model tokens) with their beam scores, best
        first; the input itself left out. Mode `per-step` (the paper): a beam of width n_best
        whose live hypotheses, from the middle of the input's length on, are chosen at each
        step as k of the 3k best extensions by the same objective."""
        seen = {source.model_tokens}
        out = []
        choose = self.per_step(source) if self.config.mode == "per-step" else None
        for tokens, score in self.model.nbest(source.model_tokens, self.options, choose,
                                              source.proper_nouns | source.numbers,
                                              self.config.name_bonus):
            key = tuple(tokens)
            if key and key not in seen:
                seen.add(key)
                out.append((key, score))
        return out

    def per_step(self, source: Source) -> Callable[[int, list[list[str]]], list[int]]:
        """The step-wise choice: the first `beam` extensions (plain beam search) before the
        middle of the input's length, the greedy choice of `beam` of them from there on."""
        vector = mean_embedding(self.model, source.model_tokens)
        middle = len(source.model_tokens) // 2
        width = self.options.beam

        def choose(step: int, partials: list[list[str]]) -> list[int]:
            if step < middle or len(partials) <= width:
                return list(range(min(width, len(partials))))
            objective = Objective.build(partials, source.model_tokens,
                                        [mean_embedding(self.model, p) for p in partials], vector,
                                        self.config.weight, width, self.config.max_n)
            return greedy(objective, width)

        return choose

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n hypotheses in the order the greedy choice took them, from those that the
        keep_names policy leaves (keeping_names)."""
        return self.select(source, keeping_names(source, self.hypotheses(source),
                                                 self.config.keep_names), n)

    def select(self, source: Source, pool: list[tuple[tuple[str, ...], float]],
               n: int) -> list[Candidate]:
        """The greedy choice of n of the given hypotheses (from hypotheses), as candidates."""
        items = [tokens for tokens, _ in pool]
        objective = Objective.build(items, source.model_tokens,
                                    [mean_embedding(self.model, t) for t in items],
                                    mean_embedding(self.model, source.model_tokens),
                                    self.config.weight, n, self.config.max_n)
        out = []
        for index in greedy(objective, n) if items else []:
            tokens, score = pool[index]
            cased = restore_case(tokens, source) if self.restore else tokens
            out.append(Candidate(detokenize(cased), cased, self.name,
                                 {"beam_log_prob": score, "overlap": objective.overlap[index],
                                  "embedding_similarity": objective.embedding[index]}))
        return out
