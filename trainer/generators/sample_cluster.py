"""ParaBank 2's sample-and-cluster generator, composed of a constrained sampler (a generator),
a dual scorer, and the pure selection and clustering functions."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parawire.config import GenerateConfig
from parawire.trainer.corpus import detokenize
from parawire.trainer.generators.api import Candidate, Generator, OneByOne, Scorer, Source
from parawire.trainer.generators.casing import restore_case
from parawire.trainer.generators.clustering import distance_matrix, distance_tokens, kmeans
from parawire.trainer.generators.constraints import constraint_sets, content_tokens
from parawire.trainer.generators.selection import below, best_per_cluster, first_of_each, quantile

if TYPE_CHECKING:
    from parawire.trainer.decoding import DecodeOptions
    from parawire.trainer.inference import Paraphraser


class ConstrainedSampler(OneByOne):
    """Top-k samples of the forward model, spread evenly over random negative-constraint sets
    drawn from the input's content tokens (a set's words are banned in its samples)."""

    name = "sample"

    def __init__(self, model: Paraphraser, options: DecodeOptions, config: GenerateConfig,
                 restore: bool = True) -> None:
        self.model = model
        self.options = options
        self.config = config
        self.restore = restore

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """n samples: sample i uses constraint set i // ceil(n / constraint_sets); the origin
        names the set ("sample:set2")."""
        cfg = self.config
        sets = constraint_sets(content_tokens(source), cfg.constraint_sets, cfg.constraint_fraction,
                               random.Random(seed))
        per_set = math.ceil(n / len(sets))
        banned = [sets[i // per_set] for i in range(n)]
        samples = self.model.sample(source.model_tokens, banned, self.options, cfg.top_k,
                                    cfg.constraint_penalty, seed, cfg.sample_batch)
        out = []
        for index, tokens in enumerate(samples):
            cased = restore_case(tokens, source) if self.restore else tuple(tokens)
            out.append(Candidate(detokenize(cased), cased, f"{self.name}:set{index // per_set}"))
        return out


class SampleCluster(OneByOne):
    """Over-generate with the sampler, keep unique candidates whose score is at most the
    threshold, cluster them with the input by token edit distance (k = n + 1, the input's
    cluster fixed), and return the best-scored member of each other cluster, best first.

    `counts` adds up sampled, unique and kept candidates over every call (drop rate)."""

    name = "sample-cluster"

    def __init__(self, sampler: Generator, scorer: Scorer, threshold: float,
                 config: GenerateConfig) -> None:
        self.sampler = sampler
        self.scorer = scorer
        self.threshold = threshold
        self.config = config
        self.counts: Counter[str] = Counter()

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n collectively diverse candidates (fewer when fewer clusters hold one)."""
        cfg = self.config
        pool = self.sampler.generate(source, cfg.constraint_sets * cfg.samples_per_set, seed)
        keys = [tuple(t.casefold() for t in c.tokens) for c in pool]
        unique = [pool[i] for i in first_of_each(pool, keys) if pool[i].tokens]
        scores = self.scorer.score(source, unique)
        for candidate, score in zip(unique, scores, strict=True):
            candidate.scores[self.scorer.name] = score
        kept_at = below(scores, self.threshold)
        self.counts.update(sampled=len(pool), unique=len(unique), kept=len(kept_at))
        kept = [unique[i] for i in kept_at]
        points = [distance_tokens(source.tokens), *(distance_tokens(c.tokens) for c in kept)]
        clustering = kmeans(distance_matrix(points), fixed=0, k=n + 1, iterations=cfg.kmeans_iterations)
        chosen = best_per_cluster(clustering.labels[1:], [scores[i] for i in kept_at],
                                  skip=frozenset({0}))
        return [_relabel(kept[i], self.name) for i in chosen[:n]]

    def drop_rate(self) -> float:
        """Share of unique candidates dropped by the threshold so far."""
        return 1 - self.counts["kept"] / self.counts["unique"] if self.counts["unique"] else 0.0


def _relabel(candidate: Candidate, name: str) -> Candidate:
    return Candidate(candidate.text, candidate.tokens, f"{name}/{candidate.origin}", candidate.scores)


def dual_scores(forward: Paraphraser, backward: Paraphraser | None,
                pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[float]:
    """Forward NLL(target | input) + backward NLL(input | target) of (input, target) pairs
    (the forward part alone without a backward model)."""
    ahead = forward.mean_nll(pairs)
    if backward is None:
        return ahead
    back = backward.mean_nll([(target, source) for source, target in pairs])
    return [a + b for a, b in zip(ahead, back, strict=True)]


def calibrate_threshold(forward: Paraphraser, backward: Paraphraser | None,
                        pairs: Sequence[tuple[Sequence[str], Sequence[str]]], q: float) -> float:
    """The q-quantile of the gold pairs' dual scores (validation data): candidates scored
    above it are less plausible than (1 − q) of the real paraphrases."""
    finite = [s for s in dual_scores(forward, backward, pairs) if math.isfinite(s)]
    if not finite:
        raise ValueError("no scorable pair to calibrate the threshold on")
    return quantile(finite, q)
