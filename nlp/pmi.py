"""Statistical collocations: adjacent word pairs that co-occur in the corpus far more often
than chance, by normalized pointwise mutual information (NPMI)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from parawire.records import Collocation, CollocationCounts, Sentence

# Candidate pairs follow the noun-phrase patterns adjective+noun and noun+noun.
FIRST_POS = frozenset({"ADJ", "NOUN", "PROPN"})
SECOND_POS = frozenset({"NOUN", "PROPN"})


def candidate_counts(sentences: Iterable[Sentence]) -> CollocationCounts:
    """The sentences' (case-folded) lemmas and candidate pairs, counted."""
    counts = CollocationCounts()
    for sentence in sentences:
        lemmas = [lemma.casefold() for lemma in sentence.lemmas]
        counts.words.update(lemmas)
        counts.tokens += len(lemmas)
        counts.pairs.update(
            (lemmas[i], lemmas[i + 1])
            for i in range(len(lemmas) - 1)
            if sentence.pos[i] in FIRST_POS and sentence.pos[i + 1] in SECOND_POS
        )
    return counts


class PmiCollocations:
    """Word and pair counts over the sentences seen so far, and the pairs they make
    collocations: seen at least `min_count` times with NPMI of at least `threshold`."""

    def __init__(self, min_count: int = 5, threshold: float = 0.5,
                 counts: CollocationCounts | None = None) -> None:
        self.min_count = min_count
        self.threshold = threshold
        self.counts = counts if counts is not None else CollocationCounts()

    @property
    def pairs(self) -> Counter[tuple[str, str]]:
        """How often each candidate pair was seen."""
        return self.counts.pairs

    def update(self, sentences: Iterable[Sentence]) -> CollocationCounts:
        """Add the sentences' lemmas and candidate pairs to the counts; returns what they added."""
        added = candidate_counts(sentences)
        self.counts.add(added)
        return added

    def npmi(self, pair: tuple[str, str]) -> float:
        """log(p(xy) / (p(x) p(y))) / -log p(xy), in [-1, 1]; -1 for a pair never seen."""
        words, total = self.counts.words, self.counts.tokens
        joint = self.pairs[pair]
        if not joint:
            return -1.0
        if joint == total:
            return 1.0
        p_xy = joint / total
        p_x, p_y = words[pair[0]] / total, words[pair[1]] / total
        return math.log(p_xy / (p_x * p_y)) / -math.log(p_xy)

    def is_collocation(self, pair: tuple[str, str]) -> bool:
        """Whether the counts so far make the pair a collocation."""
        return self.pairs[pair] >= self.min_count and self.npmi(pair) >= self.threshold

    def learned(self) -> list[tuple[str, str]]:
        """Every pair that is a collocation now, most associated first."""
        return sorted(filter(self.is_collocation, self.pairs), key=self.npmi, reverse=True)

    def add_to(self, sentence: Sentence) -> None:
        """Append the sentence's collocation pairs to its collocations (once each)."""
        have = {c.lemma for c in sentence.collocations}
        for i in range(len(sentence.lemmas) - 1):
            if sentence.pos[i] not in FIRST_POS or sentence.pos[i + 1] not in SECOND_POS:
                continue
            pair = (sentence.lemmas[i].casefold(), sentence.lemmas[i + 1].casefold())
            lemma = " ".join(pair)
            if lemma not in have and self.is_collocation(pair):
                have.add(lemma)
                sentence.collocations.append(Collocation(
                    text=f"{sentence.tokens[i]} {sentence.tokens[i + 1]}", lemma=lemma,
                    pos=f"{sentence.pos[i]} {sentence.pos[i + 1]}",
                ))

    def learn_and_mark(self, batches: Iterable[list[Sentence]]) -> list[CollocationCounts]:
        """Count a batch of newly annotated sentence lists, then mark their collocations;
        returns what each list added to the counts."""
        batches = list(batches)
        added = [self.update(sentences) for sentences in batches]
        for sentences in batches:
            for sentence in sentences:
                self.add_to(sentence)
        return added
