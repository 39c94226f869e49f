"""Diversity and fidelity of generated paraphrases, each metric defined where it is computed.

Every metric reads lower-cased word tokens; "words" leave punctuation-only tokens out. BLEU
is sacrebleu's sentence BLEU (exponential smoothing) on space-joined tokens, 0–100.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from parawire.trainer.generators.clustering import distance_tokens, token_distance

Tokens = Sequence[str]


def words(tokens: Tokens) -> tuple[str, ...]:
    """Lower-cased tokens without punctuation-only ones."""
    return distance_tokens(tokens)


def sentence_bleu(hypothesis: Tokens, reference: Tokens) -> float:
    """Sentence BLEU (0–100) of hypothesis against one reference, lower-cased tokens."""
    import sacrebleu

    hyp = " ".join(t.casefold() for t in hypothesis)
    ref = " ".join(t.casefold() for t in reference)
    return sacrebleu.sentence_bleu(hyp, [ref], tokenize="none").score


def one_minus_bleu(hypothesis: Tokens, reference: Tokens) -> float:
    """100 − sentence BLEU: 0 for a copy, 100 for no shared n-gram (ParaBank 2's ×100 scale)."""
    return 100.0 - sentence_bleu(hypothesis, reference)


def bow_iou(a: Tokens, b: Tokens) -> float:
    """Bag-of-words intersection over union: |W(a) ∩ W(b)| / |W(a) ∪ W(b)| of the word sets
    (1 for the same words, 0 for none shared; 0 when both are empty)."""
    left, right = set(words(a)), set(words(b))
    union = left | right
    return len(left & right) / len(union) if union else 0.0


def _ngrams(tokens: Tokens, n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def pinc(output: Tokens, source: Tokens, max_n: int = 4) -> float:
    """PINC (Chen & Dolan 2011): mean over n = 1..max_n of 1 − |N_n(out) ∩ N_n(src)| / |N_n(out)|,
    N_n the set of word n-grams; orders the output is too short for are left out (0 if all)."""
    out, src = words(output), words(source)
    parts = []
    for n in range(1, max_n + 1):
        grams = set(_ngrams(out, n))
        if grams:
            parts.append(1 - len(grams & set(_ngrams(src, n))) / len(grams))
    return sum(parts) / len(parts) if parts else 0.0


def wer(output: Tokens, source: Tokens) -> float:
    """Word error rate of the output against the source: word edit distance / source words."""
    out, src = words(output), words(source)
    return token_distance(out, src) / max(1, len(src))


def length_ratio(output: Tokens, source: Tokens) -> float:
    """Output words / source words."""
    return len(words(output)) / max(1, len(words(source)))


def distinct_n(outputs: Sequence[Tokens], n: int) -> float:
    """Distinct-n: distinct word n-grams / all word n-grams over the outputs together."""
    grams = [g for output in outputs for g in _ngrams(words(output), n)]
    return len(set(grams)) / len(grams) if grams else 0.0


def type_token_ratio(outputs: Sequence[Tokens]) -> float:
    """Distinct words / words over the outputs together."""
    return distinct_n(outputs, 1)


def pairwise(outputs: Sequence[Tokens], metric: Callable[[Tokens, Tokens], float]) -> float:
    """Mean of metric(a, b) over ordered pairs of different outputs (0 for fewer than two)."""
    values = [metric(a, b) for a, b in itertools.permutations(outputs, 2)]
    return statistics.fmean(values) if values else 0.0


def preservation(output: Tokens, required: set[str]) -> tuple[int, int]:
    """(kept, required): how many of the required lower-cased tokens (the input's proper-noun
    words and numbers) the output contains."""
    present = {t.casefold() for t in output}
    return len(required & present), len(required)


def meteor(hypothesis: Tokens, reference: Tokens) -> float:
    """METEOR (nltk; 0–100) with exact and Porter-stem matching: no WordNet data is installed
    here, so the synonym stage matches nothing."""
    from nltk.translate.meteor_score import single_meteor_score

    return 100 * single_meteor_score([t.casefold() for t in reference],
                                     [t.casefold() for t in hypothesis], wordnet=_NoSynonyms())


class _NoSynonyms:
    """A WordNet stand-in with no synsets (METEOR's synonym stage finds none)."""

    def synsets(self, *args: object, **kwargs: object) -> list[object]:
        return []


@dataclass(frozen=True, slots=True)
class DependencyTree:
    """A parse as heads (index of each token's head, its own index at the root) and labels."""

    heads: tuple[int, ...]
    labels: tuple[str, ...]

    def as_apted(self) -> Any:
        """The tree as apted's nodes (apted.helpers.Tree), each named by its dependency label."""
        from apted.helpers import Tree

        children: dict[int, list[int]] = {}
        roots = []
        for index, head in enumerate(self.heads):
            (roots if head == index else children.setdefault(head, [])).append(index)

        def build(index: int) -> Any:
            return Tree(self.labels[index], *(build(c) for c in children.get(index, [])))

        return Tree("ROOT", *(build(r) for r in roots))


def tree_edit_distance(a: DependencyTree, b: DependencyTree) -> int:
    """Unit-cost tree edit distance (APTED) between two dependency trees labelled by relation."""
    from apted import APTED

    return int(APTED(a.as_apted(), b.as_apted()).compute_edit_distance())
