"""The pair model's features of a candidate (pure): what does not depend on the language.

Side a is the candidate's reference, side b its sentence. Per-side features come in
`_a`/`_b` twins (what side a states that b lacks, and the reverse), so a pair read the
other way round is the same features with the twins swapped (`swapped`)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from difflib import SequenceMatcher

from parawire.aligner.coverage import Words, coverage
from parawire.aligner.filters import conflicting, dates
from parawire.aligner.signals import numbers, quoted_words
from parawire.records import Sentence
from parawire.textnorm import length_ratio, word_diff, words

PERSON_LABELS = frozenset({"PERSON", "PER"})

FEATURES = (
    "cosine", "cover_soft_a", "cover_soft_b", "cover_share_a", "cover_share_b",
    "added_a", "added_b", "added_nouns_a", "added_nouns_b", "entities_only_a",
    "entities_only_b", "numbers_only_a", "numbers_only_b", "dates_only_a", "dates_only_b",
    "speakers_only_a", "speakers_only_b",
    "number_conflict", "date_conflict", "quote_share", "verbatim_run", "edit_share",
    "bleu_divergence", "length_ratio", "words_a", "words_b", "shared_entities",
    "shared_nouns", "margin",
)


def speakers(sentence: Sentence) -> frozenset[str]:
    """The words of the people a sentence names (its PERSON/PER entities)."""
    return frozenset(word for text, label in sentence.entities if label in PERSON_LABELS
                     for word in words(text))


def longest_run_share(a: str, b: str) -> float:
    """The longest run of words both texts share, over the shorter text's words."""
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    match = SequenceMatcher(a=left, b=right, autojunk=False).find_longest_match()
    return match.size / min(len(left), len(right))


def bleu(hypothesis: list[str], reference: list[str], order: int = 4) -> float:
    """Sentence BLEU with add-one smoothing of the n-gram precisions above unigrams."""
    if not hypothesis or not reference:
        return 0.0
    logs = 0.0
    for n in range(1, order + 1):
        hyp = Counter(tuple(hypothesis[i:i + n]) for i in range(len(hypothesis) - n + 1))
        ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        overlap = sum((hyp & ref).values())
        total = sum(hyp.values())
        smooth = 0 if n == 1 else 1
        if overlap + smooth == 0:
            return 0.0
        logs += math.log((overlap + smooth) / (total + smooth)) / order
    brevity = min(0.0, 1 - len(reference) / len(hypothesis))
    return math.exp(logs + brevity)


def bleu_divergence(a: str, b: str) -> float:
    """1 − BLEU, the mean of both directions (how much the wording differs)."""
    left, right = words(a), words(b)
    return 1.0 - (bleu(left, right) + bleu(right, left)) / 2


def edit_share(a: str, b: str) -> float:
    """Words inserted, deleted or replaced between the texts over the longer text's words."""
    longest = max(len(words(a)), len(words(b)))
    return word_diff(a, b).edits / longest if longest else 0.0


def quote_share(a: str, b: str) -> float:
    """How much of the shorter sentence is words one side quotes and the other has too."""
    words_a, words_b = set(words(a)), set(words(b))
    quoted = max(len(quoted_words(a) & words_b), len(quoted_words(b) & words_a))
    return min(1.0, quoted / (min(len(words_a), len(words_b)) or 1))


def pair_features(a: Sentence, b: Sentence, words_a: Words, words_b: Words, cosine: float,
                  source_features: Mapping[str, float]) -> dict[str, float]:
    """Every feature of the pair (a, b) by name (FEATURES)."""
    cover_a, cover_b = coverage(words_a, words_b), coverage(words_b, words_a)
    nums_a, nums_b = numbers(a), numbers(b)
    dates_a, dates_b = dates(a), dates(b)
    people_a, people_b = speakers(a), speakers(b)
    return {
        "cosine": cosine,
        "cover_soft_a": cover_a.soft, "cover_soft_b": cover_b.soft,
        "cover_share_a": cover_a.share, "cover_share_b": cover_b.share,
        "added_a": float(cover_a.unmatched), "added_b": float(cover_b.unmatched),
        "added_nouns_a": float(cover_a.unmatched_nouns),
        "added_nouns_b": float(cover_b.unmatched_nouns),
        "entities_only_a": float(len(a.pn - b.pn)), "entities_only_b": float(len(b.pn - a.pn)),
        "numbers_only_a": float(len(nums_a - nums_b)), "numbers_only_b": float(len(nums_b - nums_a)),
        "dates_only_a": float(len(dates_a - dates_b)), "dates_only_b": float(len(dates_b - dates_a)),
        "speakers_only_a": float(len(people_a - people_b)),
        "speakers_only_b": float(len(people_b - people_a)),
        "number_conflict": float(conflicting(nums_a, nums_b)),
        "date_conflict": float(bool(dates_a and dates_b and not dates_a & dates_b)),
        "quote_share": quote_share(a.text, b.text),
        "verbatim_run": longest_run_share(a.text, b.text),
        "edit_share": edit_share(a.text, b.text),
        "bleu_divergence": bleu_divergence(a.text, b.text),
        "length_ratio": length_ratio(a.text, b.text),
        "words_a": float(len(words(a.text))), "words_b": float(len(words(b.text))),
        "shared_entities": float(len(a.pn & b.pn)), "shared_nouns": float(len(a.cn & b.cn)),
        "margin": float(source_features.get("margin", 0.0)),
    }


def swapped(features: Mapping[str, float]) -> dict[str, float]:
    """The features of the same pair read with its sides the other way round."""
    def twin(name: str) -> str:
        if name.endswith("_a"):
            return name[:-2] + "_b"
        if name.endswith("_b"):
            return name[:-2] + "_a"
        return name
    return {name: features[twin(name)] for name in features}
