"""Near-duplicate policy: an article whose SimHash is within a few bits of a stored one is a
syndicated copy of the earliest original, stored with a pointer to it rather than dropped."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

from parawire.records import Article, ArticleOutcome, Fingerprint, FingerprintMatch
from parawire.store import Store
from parawire.textnorm import words

SIMHASH_BITS = 64
SIMHASH_BANDS = 8
# Within this many differing bits, two texts are near-duplicates. With 8 bands of 8 bits,
# hashes that close leave at least one band untouched, so the band lookup finds every one.
NEAR_DUPLICATE_BITS = SIMHASH_BANDS - 1
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


def fingerprint(text: str) -> Fingerprint:
    """A text's SimHash and its bands."""
    value = simhash(text)
    return Fingerprint(value, tuple(simhash_bands(value)))


def first_original(new: Fingerprint, stored: Iterable[FingerprintMatch]) -> int | None:
    """The original that the earliest near-duplicate among `stored` (in id order) copies, or
    that article itself; None when none is within NEAR_DUPLICATE_BITS."""
    for match in stored:
        if hamming(match.fingerprint, new.value) <= NEAR_DUPLICATE_BITS:
            return match.syndicated_of or match.article_id
    return None


def store_article(store: Store, article: Article, crawl_run_id: int | None = None) -> ArticleOutcome:
    """Store an article with its fingerprint, a near-duplicate pointing at its original;
    a duplicate URL or content is not stored."""
    new = fingerprint(article.text)
    article.syndicated_of = first_original(new, store.articles_sharing_bands(new.bands))
    outcome = store.add_article(article, crawl_run_id, new)
    if outcome is ArticleOutcome.STORED and article.syndicated_of is not None:
        return ArticleOutcome.NEAR_DUPLICATE
    return outcome


def store_articles(store: Store, articles: Iterable[Article],
                   crawl_run_id: int | None = None) -> list[ArticleOutcome]:
    """Store articles as store_article does, in one transaction (each sees those before it)."""
    with store.transaction():
        return [store_article(store, article, crawl_run_id) for article in articles]
