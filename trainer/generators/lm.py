"""A word n-gram language model with interpolated Kneser-Ney smoothing, trained here on a
language's own sentences (pure Python: KenLM's estimator needs Boost, which no wheel ships).

With absolute discount D, context h of n − 1 words and h' its last n − 2:

    P(w | h) = max(c(h w) − D, 0) / c(h ·) + D · N1+(h ·) / c(h ·) · P(w | h')

where c is the raw count at the highest order and the continuation count N1+(· h w) (how many
distinct words precede h w) below it; an unseen context backs off wholly to P(w | h'); the
unigram level interpolates with the uniform distribution over the vocabulary, <unk> and </s>
included, so every word, known or not, gets a probability and each distribution sums to 1."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from parawire.trainer.corpus import read_records, split_path, tokenize

BOS, EOS, UNK = "<s>", "</s>", "<unk>"


class KneserNey:
    """An order-n interpolated Kneser-Ney model over lower-cased word tokens."""

    def __init__(self, sentences: Iterable[Sequence[str]], order: int, discount: float = 0.75) -> None:
        if order < 1:
            raise ValueError("order must be at least 1")
        self.order = order
        self.discount = discount
        highest: Counter[tuple[str, ...]] = Counter()
        for sentence in sentences:
            padded = [BOS] * (order - 1) + [t.casefold() for t in sentence] + [EOS]
            for i in range(order - 1, len(padded)):
                highest[tuple(padded[i - order + 1:i + 1])] += 1
        # counts[k]: (k+1)-grams → count (raw at the highest order, continuation below).
        counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
        counts[order - 1] = highest
        for k in range(order - 1, 0, -1):
            for gram in counts[k]:
                counts[k - 1][gram[1:]] += 1
        self.vocab = {gram[0] for gram in counts[0]} | {UNK, EOS}
        self.vocab.discard(BOS)
        self.grams = counts
        self.totals: list[dict[tuple[str, ...], int]] = []
        self.followers: list[dict[tuple[str, ...], int]] = []
        for level in counts:
            totals: dict[tuple[str, ...], int] = defaultdict(int)
            followers: dict[tuple[str, ...], int] = defaultdict(int)
            for gram, count in level.items():
                totals[gram[:-1]] += count
                followers[gram[:-1]] += 1
            self.totals.append(dict(totals))
            self.followers.append(dict(followers))

    def probability(self, word: str, context: Sequence[str]) -> float:
        """P(word | the last order − 1 words of context) (words lower-cased; unknown: <unk>)."""
        word = word.casefold()
        word = word if word in self.vocab else UNK
        history = tuple(t.casefold() for t in context)[len(context) - self.order + 1:] \
            if self.order > 1 else ()
        history = (BOS,) * (self.order - 1 - len(history)) + history
        return self._p(word, history)

    def _p(self, word: str, history: tuple[str, ...]) -> float:
        level = len(history)
        total = self.totals[level].get(history, 0)
        lower = self._p(word, history[1:]) if level else 1 / len(self.vocab)
        if not total:
            return lower
        count = self.grams[level].get((*history, word), 0)
        weight = self.discount * self.followers[level][history] / total
        return max(count - self.discount, 0) / total + weight * lower

    def log_perplexity(self, tokens: Sequence[str]) -> float:
        """Mean negative natural-log probability per word of the sentence, </s> included."""
        words = [t.casefold() for t in tokens]
        history: list[str] = []
        total = 0.0
        for word in [*words, EOS]:
            total -= math.log(self.probability(word, history))
            history.append(word)
        return total / (len(words) + 1)


@lru_cache(maxsize=2)
def language_model(corpus: Path, order: int, limit: int) -> KneserNey:
    """A model of the first `limit` sentences of a corpus's train split (each pair's input,
    then its target), built once per process."""
    records = read_records(split_path(corpus, "train"))
    sentences = [tokenize(text) for pair in records for text in pair][:limit]
    return KneserNey(sentences, order)
