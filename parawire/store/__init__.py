"""The store: every stage reads its input records here and writes its own."""

from functools import lru_cache

from parawire.config import Settings
from parawire.store.alignment import BatchOverlap
from parawire.store.overview import OverviewFingerprint
from parawire.store.store import Store, open_store


def store_of(settings: Settings, pool_size: int | None = None) -> Store:
    """The store the settings point at, migrated (once per process, URL and pool size)."""
    return _store(settings.store_url, pool_size)


@lru_cache(maxsize=8)
def _store(url: str, pool_size: int | None) -> Store:
    return open_store(url, pool_size)


__all__ = ["BatchOverlap", "OverviewFingerprint", "Store", "open_store", "store_of"]
