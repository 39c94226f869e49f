"""Text normalisations shared by the stages (verbatim keys, word tokens, typography folding).

Stored text keeps the publisher's characters; these are for comparing texts only."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from difflib import SequenceMatcher
from typing import NamedTuple

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Typographic variants of one character, as publishers write them: quotes, apostrophes,
# primes, guillemets, dashes and minus signs, the ellipsis.
_FOLDED = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u02bc\u00b4\u0060\u2039\u203a", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb\u300c\u300d", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
    "\u2026": "...",
})


def fold_typography(text: str) -> str:
    """The text with typographic variants made plain (curly and low quotes, guillemets and
    primes straight, dashes "-", an ellipsis "..."): for comparing texts (headline
    candidates, names), never for what is stored or shown."""
    return text.translate(_FOLDED)


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


class WordDiff(NamedTuple):
    """How two texts differ word by word, in order."""

    edits: int  # words inserted, deleted or replaced (a replaced run counts its longer side)
    only_added: bool  # one text is the other with words added, none replaced or removed


def word_diff(a: str, b: str) -> WordDiff:
    """The word-level difference of two texts ("Katie Glueck contributed" and "Anna Palmer
    and Katie Glueck contributed": 3 edits, only added)."""
    changes = [(op, max(i2 - i1, j2 - j1)) for op, i1, i2, j1, j2
               in SequenceMatcher(a=words(a), b=words(b), autojunk=False).get_opcodes()
               if op != "equal"]
    ops = {op for op, _ in changes}
    return WordDiff(edits=sum(size for _, size in changes),
                    only_added=ops <= {"insert"} or ops <= {"delete"})


def token_jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts."""
    left, right = set(words(a)), set(words(b))
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)
