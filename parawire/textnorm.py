"""Text normalisations shared by the stages (verbatim keys, word tokens)."""

from __future__ import annotations

import hashlib
import re
import unicodedata

import numpy as np

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def words(text: str) -> list[str]:
    """Lower-cased alphanumeric words, split the way the index's default tokenizer splits."""
    return [w.casefold() for w in _WORD.findall(text)]


def verbatim_key(text: str) -> str:
    """A key equal for two sentences that differ only in case, spacing or punctuation."""
    normal = unicodedata.normalize("NFKC", text)
    return hashlib.sha1(" ".join(words(normal)).encode("utf-8")).hexdigest()


SIMHASH_BITS = 64
SIMHASH_BANDS = 8
_BIT_POSITIONS = np.arange(SIMHASH_BITS, dtype=np.uint64)


def simhash(text: str, shingle: int = 3) -> int:
    """64-bit SimHash of a text's word shingles; near-identical texts differ in few bits."""
    tokens = words(text)
    grams = [" ".join(tokens[i:i + shingle]) for i in range(max(1, len(tokens) - shingle + 1))]
    hashes = np.frombuffer(b"".join(hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
                                    for gram in grams), dtype=">u8")
    # Each bit's weight: +1 for every shingle hash with the bit set, -1 for the others.
    set_bits = ((hashes[:, None] >> _BIT_POSITIONS) & np.uint64(1)).sum(axis=0)
    return sum(1 << bit for bit in range(SIMHASH_BITS) if 2 * int(set_bits[bit]) > len(grams))


def simhash_bands(value: int) -> list[int]:
    """The SimHash cut into 8-bit bands: hashes within 7 bits share at least one band."""
    width = SIMHASH_BITS // SIMHASH_BANDS
    return [value >> (band * width) & ((1 << width) - 1) for band in range(SIMHASH_BANDS)]


def hamming(a: int, b: int) -> int:
    """Number of differing bits."""
    return (a ^ b).bit_count()


def content_hash(text: str) -> str:
    """Hash of an article body, insensitive to whitespace and case."""
    return hashlib.sha256(" ".join(words(text)).encode("utf-8")).hexdigest()


def length_ratio(a: str, b: str) -> float:
    """Word count of the shorter text over that of the longer (1.0 for equal lengths)."""
    left, right = len(words(a)), len(words(b))
    if max(left, right) == 0:
        return 1.0
    return min(left, right) / max(left, right)


def token_jaccard(a: str, b: str) -> float:
    """Jaccard similarity of the word sets of two texts."""
    left, right = set(words(a)), set(words(b))
    if not left and not right:
        return 1.0
    return len(left & right) / len(left | right)
