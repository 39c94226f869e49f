"""Near-duplicate policy: an article whose SimHash is within a few bits of a stored one is a
syndicated copy of the earliest original, stored with a pointer to it rather than dropped."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

from parawire.records import Article, ArticleOutcome
from parawire.store import Store
from parawire.textnorm import words

SIMHASH_BITS = 64
# Within this many differing bits, two texts are near-duplicates.
NEAR_DUPLICATE_BITS = 7
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


class NearDuplicates:
    """The store's article fingerprints, held in memory in id order and read as they are
    stored: a new text is compared with all of them at once (XOR and a bit count over an
    array), so each lookup costs the same whatever the store's size."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._size = 0
        self._values = np.zeros(1024, dtype=np.uint64)
        self._originals = np.zeros(1024, dtype=np.int64)  # the original each one copies
        self._last_id = 0

    def refresh(self) -> None:
        """Catch up with the store, reading everything again when fingerprints appeared
        below the newest one held (another writer committed late) or went away."""
        self._catch_up()
        if self.store.count_fingerprints(self._last_id) != self._size:
            self._size, self._last_id = 0, 0
            self._catch_up()

    def original_of(self, value: int) -> int | None:
        """The original of the earliest stored article within NEAR_DUPLICATE_BITS of this
        fingerprint (the store's articles up to now, this transaction's included)."""
        self._catch_up()
        distances = np.bitwise_count(self._values[:self._size] ^ np.uint64(value))
        near = np.flatnonzero(distances <= NEAR_DUPLICATE_BITS)
        return int(self._originals[near[0]]) if near.size else None

    def _catch_up(self) -> None:
        matches = self.store.fingerprints_after(self._last_id)
        if not matches:
            return
        needed = self._size + len(matches)
        if needed > len(self._values):
            capacity = max(needed, 2 * len(self._values))
            self._values = np.resize(self._values, capacity)
            self._originals = np.resize(self._originals, capacity)
        self._values[self._size:needed] = [m.fingerprint for m in matches]
        self._originals[self._size:needed] = [m.syndicated_of or m.article_id for m in matches]
        self._size, self._last_id = needed, matches[-1].article_id


def store_article(store: Store, article: Article, crawl_run_id: int | None = None,
                  near: NearDuplicates | None = None) -> ArticleOutcome:
    """Store an article with its fingerprint, a near-duplicate pointing at its original;
    a duplicate URL or content is not stored. `near` holds the store's fingerprints across
    calls (without one, they are all read for this article)."""
    value = simhash(article.text)
    article.syndicated_of = (near or NearDuplicates(store)).original_of(value)
    outcome = store.add_article(article, crawl_run_id, value)
    if outcome is ArticleOutcome.STORED and article.syndicated_of is not None:
        return ArticleOutcome.NEAR_DUPLICATE
    return outcome


def store_articles(store: Store, articles: Iterable[Article], crawl_run_id: int | None = None,
                   near: NearDuplicates | None = None) -> list[ArticleOutcome]:
    """Store articles as store_article does, in one transaction (each sees those before it)."""
    near = near or NearDuplicates(store)
    with store.transaction():
        near.refresh()
        return [store_article(store, article, crawl_run_id, near) for article in articles]
