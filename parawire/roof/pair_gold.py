"""Graded text pairs to train and check the pair model on: the hand-aligned dev gold
(shared/data/pairs-dev: every cross-article pair of a story's lead sentences, and of its
titles, is a candidate; a pair the gold does not list is grade 0) and binary labelled
pairs such as MSRP's (a paraphrase taken as grade 4, a non-paraphrase as grade 2)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

from parawire.errors import ParawireError
from parawire.records import Direction

# MSRP's paraphrases are "semantically equivalent" allowing minor differences: grade 4;
# its non-paraphrases share a topic and most words, so most state one core claim with
# both sides adding (grade 2; some would be 1 or 3, hence their lower training weight).
BINARY_GRADES = {True: 4, False: 2}


class GradedText(NamedTuple):
    """Two texts, the grade of the pair and its direction (text a as side a), and the
    weight of the pair in training."""

    text_a: str
    text_b: str
    grade: int
    direction: Direction
    weight: float = 1.0
    group: str = ""


def _read_jsonl(path: Path) -> list[dict]:
    try:
        with path.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    except OSError as exc:
        raise ParawireError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ParawireError(f"{path}: not JSON lines ({exc})") from None


def direction_of(grade: int, direction: str | None) -> Direction:
    """The gold direction (grades 0-1 have none: both sides state their own claims)."""
    return Direction(direction) if direction and grade >= 2 else Direction.BOTH_ADD


def read_dev_gold(folder: Path, part: str) -> list[GradedText]:
    """Every cross-article pair of one part's stories, lead with lead and title with title,
    with its gold grade and direction (0 and both_add where the gold lists none)."""
    sentences = [s for s in _read_jsonl(folder / "sentences.jsonl") if s["part"] == part]
    gold = {(g["story"], g["kind"], g["article_a"], g["index_a"], g["article_b"], g["index_b"]): g
            for g in _read_jsonl(folder / "gold.jsonl") if g["part"] == part}
    if not sentences:
        raise ParawireError(f"{folder}: no sentences of part {part!r}")
    by_story: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for s in sentences:
        by_story[(s["story"], s["kind"])].append(s)
    pairs = []
    for (story, kind), group in by_story.items():
        for x in group:
            for y in group:
                if x["article"] >= y["article"]:
                    continue
                g = gold.get((story, kind, x["article"], x["index"], y["article"], y["index"]))
                grade = int(g["grade"]) if g else 0
                pairs.append(GradedText(x["text"], y["text"], grade,
                                        direction_of(grade, g and g["direction"]), 1.0, story))
    return pairs


def binary_as_graded(pairs: list[tuple[bool, str, str]], weight: float) -> list[GradedText]:
    """Binary labelled pairs (MSRP's) as graded ones (BINARY_GRADES), with a weight."""
    return [GradedText(a, b, BINARY_GRADES[label],
                       Direction.EQUIVALENT if label else Direction.BOTH_ADD, weight, "binary")
            for label, a, b in pairs]
