"""From a run's pairs to a training dataset: selection, flipped copies, leak-free splits."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from parawire.config import ExportConfig
from parawire.records import PairRow
from parawire.textnorm import verbatim_key, words

SPLITS = ("train", "valid", "test")
_EXPORT_DEFAULTS = ExportConfig()  # the defaults live in the config model


@dataclass(frozen=True, slots=True)
class DatasetOptions:
    """How a run's pairs become examples, and how the examples are split."""

    one_target_per_input: bool = _EXPORT_DEFAULTS.one_target_per_input
    one_input_per_target: bool = _EXPORT_DEFAULTS.one_input_per_target
    flipped: bool = _EXPORT_DEFAULTS.flipped
    ratios: tuple[float, float, float] = (0.8, 0.1, 0.1)
    seed: int = _EXPORT_DEFAULTS.seed
    language: str | None = None
    min_grade: int = _EXPORT_DEFAULTS.min_grade
    directional: bool = _EXPORT_DEFAULTS.directional
    min_divergence: float = _EXPORT_DEFAULTS.min_divergence
    max_divergence: float = _EXPORT_DEFAULTS.max_divergence
    quote_pairs: bool = _EXPORT_DEFAULTS.quote_pairs
    min_target_words: int = _EXPORT_DEFAULTS.min_target_words
    min_probability: float = _EXPORT_DEFAULTS.min_probability
    min_target_coverage: float = _EXPORT_DEFAULTS.min_target_coverage


@dataclass(frozen=True, slots=True)
class Example:
    """One (input, target) example; `flipped` marks a reversed copy of a mined pair."""

    row: PairRow
    flipped: bool = False

    @property
    def source_side(self):
        """The sentence used as input."""
        return self.row.target if self.flipped else self.row.input

    @property
    def target_side(self):
        """The sentence used as target."""
        return self.row.input if self.flipped else self.row.target


# A pair is quote-derived when a shared quotation covers this share of its shorter side.
QUOTE_SHARE = 0.3


def quote_derived(row: PairRow) -> bool:
    """Both sides carry the same quotation, only the attribution differs."""
    return row.pair.features.get("quote_share", 0.0) >= QUOTE_SHARE


def divergence(row: PairRow) -> float | None:
    """The pair's lexical divergence (1 - BLEU), where the pair model read it."""
    return row.pair.features.get("bleu_divergence")


def target_coverage(row: PairRow, flipped: bool = False) -> float | None:
    """The share of the target's content words that the input states (the pair model's
    `cover_share` of the target; a stored pair's features are read from its input's side),
    where the pair model read it; of the input's, when the pair is flipped."""
    return row.pair.features.get("cover_share_a" if flipped else "cover_share_b")


def grade_drop(row: PairRow, options: DatasetOptions) -> str | None:
    """Why a graded pair is not exported, or None (pairs of ungraded runs always pass):
    below_grade, below_probability (P(grade >= 3) under min_probability),
    uncovered_target (the input states less than min_target_coverage of the target's
    content words: the target would add facts), not_oriented (a grade-3 pair whose input
    does not cover its target), quote_derived, divergence (outside the band), short_target
    (a target of fewer than min_target_words words)."""
    pair = row.pair
    if pair.grade is None:
        return None
    if pair.grade < options.min_grade:
        return "below_grade"
    if (pair.probability or 0.0) < options.min_probability:
        return "below_probability"
    coverage = target_coverage(row)
    if coverage is not None and coverage < options.min_target_coverage:
        return "uncovered_target"
    if options.directional and pair.grade == 3 and pair.direction != "a_covers_b":
        return "not_oriented"
    if not options.quote_pairs and quote_derived(row):
        return "quote_derived"
    value = divergence(row)
    if value is not None and not options.min_divergence <= value <= options.max_divergence:
        return "divergence"
    if len(words(row.target.text)) < options.min_target_words:
        return "short_target"
    return None


def flippable(row: PairRow, options: DatasetOptions) -> bool:
    """A flipped copy makes the target the input: never for a directional grade-3 pair, nor
    where the target states less than min_target_coverage of the input's content words."""
    coverage = target_coverage(row, flipped=True)
    return not (options.directional and row.pair.grade == 3) and (
        coverage is None or coverage >= options.min_target_coverage)


def text_pair_key(row: PairRow) -> frozenset[str]:
    """The pair's two texts, each normalised (case, spacing, punctuation), in either order."""
    return frozenset((verbatim_key(row.input.text), verbatim_key(row.target.text)))


def distinct_text_pairs(rows: Iterable[PairRow]) -> list[PairRow]:
    """One row per text pair (see `text_pair_key`): the best-scored, then the lowest ids
    (copies of a wire story pair the same two sentences many times)."""
    best: dict[frozenset[str], PairRow] = {}
    for row in sorted(rows, key=lambda r: (-r.pair.score, r.pair.input_sentence_id,
                                           r.pair.target_sentence_id)):
        best.setdefault(text_pair_key(row), row)
    return list(best.values())


def _by_ids(row: PairRow) -> tuple[int, int]:
    return row.pair.input_sentence_id, row.pair.target_sentence_id


def best_per(rows: list[PairRow], side: Callable[[PairRow], int],
             rank: Callable[[PairRow], tuple[float, ...]]) -> list[PairRow]:
    """The highest-ranked row of each sentence on one side, in id order."""
    best: dict[int, PairRow] = {}
    for row in rows:
        current = best.get(side(row))
        if current is None or rank(row) > rank(current):
            best[side(row)] = row
    return sorted(best.values(), key=_by_ids)


def select_rows(rows: Iterable[PairRow], options: DatasetOptions,
                counts: Counter[str]) -> list[PairRow]:
    """Language filter, repeated text pairs dropped, then (optionally) the best-scored target
    for each input, and the most probable input of each target (a target that several
    inputs seem to cover is a generic sentence of the story: read on AllSides, most of
    those pairs were wrong)."""
    rows = list(rows)
    kept = [r for r in rows if not options.language or r.input.language == options.language]
    counts["other_language"] += len(rows) - len(kept)
    graded = []
    for row in kept:
        reason = grade_drop(row, options)
        if reason is None:
            graded.append(row)
        else:
            counts[reason] += 1
    kept = graded
    distinct = distinct_text_pairs(kept)
    counts["repeated_text_pairs"] += len(kept) - len(distinct)
    kept = sorted(distinct, key=_by_ids)
    if options.one_target_per_input:
        chosen = best_per(kept, lambda r: r.pair.input_sentence_id,
                          lambda r: (r.pair.score, -r.pair.target_sentence_id))
        counts["extra_targets"] += len(kept) - len(chosen)
        kept = chosen
    if options.one_input_per_target:
        chosen = best_per(kept, lambda r: r.pair.target_sentence_id,
                          lambda r: (r.pair.probability or 0.0, r.pair.score,
                                     -r.pair.input_sentence_id))
        counts["extra_inputs"] += len(kept) - len(chosen)
        kept = chosen
    return kept


def components(rows: Sequence[PairRow]) -> list[list[PairRow]]:
    """Pairs grouped so that pairs sharing a sentence (directly or not) share a group."""
    parent: dict[int, int] = {}

    def find(node: int) -> int:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for row in rows:
        a, b = find(row.pair.input_sentence_id), find(row.pair.target_sentence_id)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[PairRow]] = {}
    for row in rows:
        groups.setdefault(find(row.pair.input_sentence_id), []).append(row)
    return [groups[key] for key in sorted(groups)]


def split_groups(groups: list[list[PairRow]], options: DatasetOptions) -> dict[str, list[PairRow]]:
    """Whole groups to train/valid/test, shuffled under the seed, filling each split in turn."""
    order = list(groups)
    random.Random(options.seed).shuffle(order)
    total = sum(len(g) for g in order)
    targets = [ratio * total for ratio in options.ratios]
    result: dict[str, list[PairRow]] = {name: [] for name in SPLITS}
    filled = [0, 0, 0]
    for group in order:
        # the split furthest below its target share takes the next group
        gaps = [targets[i] - filled[i] for i in range(3)]
        chosen = max(range(3), key=lambda i: (gaps[i] / targets[i] if targets[i] else -1, -i))
        result[SPLITS[chosen]].extend(group)
        filled[chosen] += len(group)
    return result


def build_dataset(rows: Iterable[PairRow], options: DatasetOptions) -> tuple[
        dict[str, list[Example]], Counter[str]]:
    """Examples per split, and the count of what each step removed or added."""
    counts: Counter[str] = Counter()
    selected = select_rows(rows, options, counts)
    splits = split_groups(components(selected), options)
    examples: dict[str, list[Example]] = {}
    for name, split_rows in splits.items():
        split_rows.sort(key=lambda r: (r.pair.input_sentence_id, r.pair.target_sentence_id))
        items = [Example(row) for row in split_rows]
        if options.flipped:
            copies = [Example(row, flipped=True) for row in split_rows if flippable(row, options)]
            items += copies
            counts["flipped_copies"] += len(copies)
        examples[name] = items
    return examples, counts
