"""Random negative lexical constraints (ParaBank 2): which input words a sample may not use."""

from __future__ import annotations

import random
from collections.abc import Sequence

from parawire.trainer.generators.api import Source


def content_tokens(source: Source) -> list[str]:
    """The input's lower-cased word tokens that constraints may ban, in first-seen order: no
    punctuation, no proper noun, no number, no word of three letters or fewer (function words)."""
    kept: dict[str, None] = {}
    for token in source.model_tokens:
        if (len(token) > 3 and any(ch.isalpha() for ch in token)
                and token not in source.proper_nouns and token not in source.numbers):
            kept.setdefault(token)
    return list(kept)


def constraint_sets(tokens: Sequence[str], sets: int, fraction: float,
                    rng: random.Random) -> list[frozenset[str]]:
    """`sets` random subsets of tokens, each of round(fraction · len(tokens)) words (at least one
    when there is a token and fraction > 0), drawn independently."""
    size = min(len(tokens), max(1 if fraction > 0 else 0, round(fraction * len(tokens))))
    return [frozenset(rng.sample(list(tokens), size)) for _ in range(sets)]
