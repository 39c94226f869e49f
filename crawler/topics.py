"""Topic assignment from keyword groups."""

from __future__ import annotations

from collections import Counter

from parawire.textnorm import words

OTHER = "other"


def assign_topic(title: str, text: str, groups: dict[str, list[str]]) -> str:
    """The topic whose keywords occur most often (title words count twice); ties by name."""
    counts = Counter(words(text))
    counts.update({word: 2 * n for word, n in Counter(words(title)).items()})
    best, best_score = OTHER, 0
    for topic in sorted(groups):
        score = sum(counts[keyword.casefold()] for keyword in groups[topic])
        if score > best_score:
            best, best_score = topic, score
    return best
