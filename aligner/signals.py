"""The signals of a candidate pair that the pair scorer and the filters read (pure).

Every signal is a float computed from the two annotated sentences, the candidate's
normalised BM25 score and the embedding cosine of their texts.
"""

from __future__ import annotations

import re
from collections.abc import Set

from parawire.records import Sentence
from parawire.textnorm import length_ratio, words

# The order of the scorer's features (a model file names them too).
SIGNALS = (
    "pn_shared", "pn_min_ratio", "pn_max_ratio", "cn_shared", "cn_min_ratio", "cn_max_ratio",
    "bm25", "cosine", "length_ratio", "novel_ratio", "novel_max", "entity_mismatch",
    "number_agreement", "number_mismatch", "quote_share",
)
CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})
_QUOTE_MARK = re.compile(r"[\"“”«»]")
_OPENING, _CLOSING = "“«", "”»"
_DIGITS = re.compile(r"\d")
_NUMBER_WORDS = frozenset({
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "million",
    "billion", "trillion", "dozen", "half",
})


def content_words(sentence: Sentence) -> frozenset[str]:
    """Case-folded lemmas of the sentence's content words (all its words if it has no POS)."""
    if not sentence.pos:
        return frozenset(words(sentence.text))
    return frozenset(lemma.casefold() for lemma, pos in zip(sentence.lemmas, sentence.pos,
                                                             strict=False)
                     if pos in CONTENT_POS and any(ch.isalnum() for ch in lemma))


def numbers(sentence: Sentence) -> frozenset[str]:
    """The figures a sentence states: tokens with digits (without separators and signs) and
    number words."""
    found = set()
    for token in sentence.tokens or sentence.text.split():
        text = token.casefold().strip(".,;:()")
        if _DIGITS.search(text):
            found.add(re.sub(r"[^\d.]", "", text).rstrip("."))
        elif text in _NUMBER_WORDS:
            found.add(text)
    return frozenset(found)


def quoted_words(text: str) -> frozenset[str]:
    """The words inside quotation marks. A sentence may hold only one end of a quotation
    (the segmenter cut it): a closing mark quotes from the start, an opening one to the end."""
    text = text.replace("''", '"').replace("``", '"')
    spans: list[str] = []
    start: int | None = None
    for mark in _QUOTE_MARK.finditer(text):
        at, char = mark.start(), mark.group()
        before = text[at - 1] if at else " "
        opening = char in _OPENING or (char not in _CLOSING and (before.isspace() or before in "([—-"))
        if opening and start is None:
            start = at + 1
        elif not opening:
            spans.append(text[start or 0:at])
            start = None
    if start is not None:
        spans.append(text[start:])
    return frozenset(w for span in spans for w in words(span))


def _ratios(a: Set[str], b: Set[str]) -> tuple[float, float, float]:
    shared = len(a & b)
    low, high = min(len(a), len(b)), max(len(a), len(b))
    return float(shared), shared / low if low else 1.0, shared / high if high else 1.0


def pair_signals(a: Sentence, b: Sentence, bm25: float, cosine: float) -> dict[str, float]:
    """Every signal of the pair (a, b), by name (SIGNALS): shared entity keys and common
    nouns with their shares of the sparser and the richer side, the normalised BM25 score,
    the cosine, the length ratio, the share of content words only one side has (overall and
    the larger of the two sides'), the share of entity keys only one side has, the figures'
    agreement, and how much of the shorter sentence is words one side quotes and the other
    has too."""
    pn = _ratios(a.pn, b.pn)
    cn = _ratios(a.cn, b.cn)
    words_a, words_b = content_words(a), content_words(b)
    union = words_a | words_b
    novel = len(words_a ^ words_b) / len(union) if union else 0.0
    novel_max = max(len(words_a - words_b) / len(words_a) if words_a else 0.0,
                    len(words_b - words_a) / len(words_b) if words_b else 0.0)
    names = a.pn | b.pn
    nums_a, nums_b = numbers(a), numbers(b)
    nums = nums_a | nums_b
    words_of_a, words_of_b = set(words(a.text)), set(words(b.text))
    quoted = max(len(quoted_words(a.text) & words_of_b), len(quoted_words(b.text) & words_of_a))
    shorter = min(len(words_of_a), len(words_of_b)) or 1
    return {
        "pn_shared": pn[0], "pn_min_ratio": pn[1], "pn_max_ratio": pn[2],
        "cn_shared": cn[0], "cn_min_ratio": cn[1], "cn_max_ratio": cn[2],
        "bm25": min(1.0, max(0.0, bm25)), "cosine": cosine,
        "length_ratio": length_ratio(a.text, b.text),
        "novel_ratio": novel, "novel_max": novel_max,
        "entity_mismatch": len(a.pn ^ b.pn) / len(names) if names else 0.0,
        "number_agreement": len(nums_a & nums_b) / len(nums) if nums else 1.0,
        "number_mismatch": float(len(nums_a ^ nums_b)),
        "quote_share": min(1.0, quoted / shorter),
    }
