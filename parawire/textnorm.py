"""Text normalisations shared by the stages (verbatim keys, word tokens)."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric words, split the way the index's default tokenizer splits."""
    return [w.casefold() for w in _WORD.findall(text)]


def verbatim_key(text: str) -> str:
    """A key equal for two sentences that differ only in case, spacing or punctuation."""
    normal = unicodedata.normalize("NFKC", text)
    return hashlib.sha1(" ".join(words(normal)).encode("utf-8")).hexdigest()


def content_hash(text: str) -> str:
    """Hash of an article body, insensitive to whitespace and case."""
    return hashlib.sha256(" ".join(words(text)).encode("utf-8")).hexdigest()


def length_ratio(a: str, b: str) -> float:
    """Word count of the shorter text over that of the longer (1.0 for equal lengths)."""
    left, right = len(words(a)), len(words(b))
    if max(left, right) == 0:
        return 1.0
    return min(left, right) / max(left, right)


def _word_opcodes(a: str, b: str) -> list[tuple[str, int, int, int, int]]:
    from difflib import SequenceMatcher

    return SequenceMatcher(a=words(a), b=words(b), autojunk=False).get_opcodes()


def word_edits(a: str, b: str) -> int:
    """How many words differ between two texts in order: the words inserted, deleted or
    replaced (a replaced run counts its longer side) to turn one into the other."""
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in _word_opcodes(a, b)
               if op != "equal")


def only_added(a: str, b: str) -> bool:
    """One text is the other with words added and none replaced or removed ("Katie Glueck
    contributed" and "Anna Palmer and Katie Glueck contributed")."""
    ops = {op for op, *_ in _word_opcodes(a, b)}
    return ops <= {"equal", "insert"} or ops <= {"equal", "delete"}


def token_jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts."""
    left, right = set(words(a)), set(words(b))
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)
