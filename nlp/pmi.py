"""Statistical collocations: adjacent word pairs that co-occur in the corpus far more often
than chance, by normalized pointwise mutual information (NPMI)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from parawire.records import Collocation, Sentence

# Candidate pairs follow the noun-phrase patterns adjective+noun and noun+noun.
FIRST_POS = frozenset({"ADJ", "NOUN", "PROPN"})
SECOND_POS = frozenset({"NOUN", "PROPN"})


class PmiCollocations:
    """Word and pair counts over the sentences seen so far, and the pairs they make
    collocations: seen at least `min_count` times with NPMI of at least `threshold`."""

    def __init__(self, min_count: int = 5, threshold: float = 0.5) -> None:
        self.min_count = min_count
        self.threshold = threshold
        self.words: Counter[str] = Counter()
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.total = 0

    def update(self, sentences: Iterable[Sentence]) -> None:
        """Add the sentences' lemmas and candidate pairs to the counts."""
        for sentence in sentences:
            lemmas = [lemma.casefold() for lemma in sentence.lemmas]
            self.words.update(lemmas)
            self.total += len(lemmas)
            self.pairs.update(
                (lemmas[i], lemmas[i + 1])
                for i in range(len(lemmas) - 1)
                if sentence.pos[i] in FIRST_POS and sentence.pos[i + 1] in SECOND_POS
            )

    def npmi(self, pair: tuple[str, str]) -> float:
        """log(p(xy) / (p(x) p(y))) / -log p(xy), in [-1, 1]; -1 for a pair never seen."""
        joint = self.pairs[pair]
        if not joint:
            return -1.0
        if joint == self.total:
            return 1.0
        p_xy = joint / self.total
        p_x, p_y = self.words[pair[0]] / self.total, self.words[pair[1]] / self.total
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

    def learn_and_mark(self, batches: Iterable[list[Sentence]]) -> None:
        """Count a batch of newly annotated sentence lists, then mark their collocations."""
        batches = list(batches)
        for sentences in batches:
            self.update(sentences)
        for sentences in batches:
            for sentence in sentences:
                self.add_to(sentence)
