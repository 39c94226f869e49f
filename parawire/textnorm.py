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


def word_edits(a: str, b: str) -> int:
    """How many words differ between two texts in order: the words inserted, deleted or
    replaced (a replaced run counts its longer side) to turn one into the other."""
    from difflib import SequenceMatcher

    matcher = SequenceMatcher(a=words(a), b=words(b), autojunk=False)
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in matcher.get_opcodes()
               if op != "equal")


def token_jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts."""
    left, right = set(words(a)), set(words(b))
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)
