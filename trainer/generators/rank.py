"""Rank many candidates (Lee): pool several models and decodings, filter in order — copies,
diversity, fluency, semantics — and rank the survivors; the top-1 is the answer.

Filters (each records what it removed):
1. copies — empty, the input's words, or an earlier candidate's words;
2. diversity — 100 − BLEU against the input below `min_one_minus_bleu`;
3. fluency — log-perplexity under the language model more than `fluency_margin` nats above
   the input's own (so the bar moves with each sentence's difficulty);
4. semantic — embedding cosine with the input below `min_cosine`, or a name or number of the
   input lost.
Ranking: the mean of each survivor's ranks by cosine (high first), 1 − BLEU (high first),
log-perplexity (low first) and, with a backward model, backward NLL (low first); ties keep
pool order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from parawire.trainer.generators.api import Candidate, Generator, Scorer, Source
from parawire.trainer.generators.chain import distinct
from parawire.trainer.generators.evaluation import Similarity
from parawire.trainer.generators.lm import KneserNey
from parawire.trainer.generators.metrics import one_minus_bleu, wer
from parawire.trainer.generators.overgen import interleave, pool_batch
from parawire.trainer.generators.prune import keeps_names_and_numbers

FILTERS = ("copies", "diversity", "fluency", "semantic")


@dataclass(frozen=True, slots=True)
class Bars:
    """The filters' bars (see the module docstring; defaults: [generate.rank])."""

    min_one_minus_bleu: float
    fluency_margin: float
    min_cosine: float


def mean_ranks(columns: Sequence[Sequence[float]], higher_better: Sequence[bool]) -> list[float]:
    """Each row's mean rank (0 = best) over the columns; equal values share their lower rank."""
    size = len(columns[0]) if columns else 0
    totals = [0.0] * size
    for column, high in zip(columns, higher_better, strict=True):
        keyed = [-v if high else v for v in column]
        for row in range(size):
            totals[row] += sum(1 for other in keyed if other < keyed[row])
    return [t / max(1, len(columns)) for t in totals]


class RankMany:
    """Candidates of several source generators, filtered and ranked (module docstring).

    `counts` adds up pooled, removed per filter and kept over every call; `seconds` the CPU
    seconds of each source."""

    name = "rank"

    def __init__(self, sources: Sequence[Generator], per_source: int, lm: KneserNey,
                 similarity: Similarity, bars: Bars, backward: Scorer | None = None,
                 skipped: dict[str, str] | None = None) -> None:
        self.sources = list(sources)
        self.per_source = per_source
        self.lm = lm
        self.similarity = similarity
        self.bars = bars
        self.backward = backward
        self.skipped = dict(skipped or {})
        self.counts: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """The n best-ranked survivors, best first, each with its scores."""
        return self.generate_batch([source], n, seed)[0]

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Each source's ranked survivors; every source generator runs once over the batch."""
        pools = pool_batch(self.sources, sources, self.per_source, seed, self.seconds)
        return [self.choose(source, groups, n) for source, groups in zip(sources, pools, strict=True)]

    def choose(self, source: Source, groups: Sequence[Sequence[Candidate]], n: int) -> list[Candidate]:
        """The n best-ranked survivors of one source's pooled groups, counted in `counts`."""
        pool = interleave(groups)
        self.counts["pooled"] += len(pool)
        new = distinct(source, pool, len(pool))
        self.counts["copies"] += len(pool) - len(new)
        diverse = []
        for candidate in new:
            candidate.scores["one_minus_bleu"] = one_minus_bleu(candidate.tokens, source.tokens)
            candidate.scores["wer"] = wer(candidate.tokens, source.tokens)
            if candidate.scores["one_minus_bleu"] >= self.bars.min_one_minus_bleu:
                diverse.append(candidate)
        self.counts["diversity"] += len(new) - len(diverse)
        bar = self.lm.log_perplexity(source.tokens) + self.bars.fluency_margin
        fluent = []
        for candidate in diverse:
            candidate.scores["log_perplexity"] = self.lm.log_perplexity(candidate.tokens)
            if candidate.scores["log_perplexity"] <= bar:
                fluent.append(candidate)
        self.counts["fluency"] += len(diverse) - len(fluent)
        cosines = self.similarity([(source.text, c.text) for c in fluent])
        faithful = []
        for candidate, cosine in zip(fluent, cosines, strict=True):
            candidate.scores["input_cosine"] = cosine
            if cosine >= self.bars.min_cosine and keeps_names_and_numbers(source, candidate):
                faithful.append(candidate)
        self.counts["semantic"] += len(fluent) - len(faithful)
        self.counts["kept"] += len(faithful)
        return [replace(c, origin=f"{self.name}/{c.origin}") for c in self.ranked(source, faithful)[:n]]

    def ranked(self, source: Source, candidates: list[Candidate]) -> list[Candidate]:
        """The candidates best first by their mean rank (module docstring)."""
        if not candidates:
            return []
        columns = [[c.scores[k] for c in candidates] for k in ("input_cosine", "one_minus_bleu",
                                                               "log_perplexity")]
        higher = [True, True, False]
        if self.backward is not None:
            for candidate, nll in zip(candidates, self.backward.score(source, candidates), strict=True):
                candidate.scores["backward_nll"] = nll
            columns.append([c.scores["backward_nll"] for c in candidates])
            higher.append(False)
        ranks = mean_ranks(columns, higher)
        order = sorted(range(len(candidates)), key=lambda i: (ranks[i], i))
        for i in order:
            candidates[i].scores["mean_rank"] = ranks[i]
        return [candidates[i] for i in order]

    def pool_report(self) -> dict[str, int | str]:
        """Pooled, removed per filter, kept (over every call so far), and skipped sources."""
        return {"pooled": self.counts["pooled"],
                **{f"removed_{f}": self.counts[f] for f in FILTERS}, "kept": self.counts["kept"],
                **{f"skipped:{name}": why for name, why in self.skipped.items()}}
