"""Sentence indexes: the SentenceIndex protocol and its backends."""

from __future__ import annotations

from indexer.protocol import HcsssQuery, Hit, SentenceIndex
from indexer.tantivy_index import TantivyIndex
from parawire.config import Settings
from parawire.errors import ParawireError


def open_index(settings: Settings) -> SentenceIndex:
    """The index the settings name (index.backend, index.path)."""
    if settings.index.backend == "tantivy":
        return TantivyIndex(settings.index_path)
    raise ParawireError(f"unknown index.backend {settings.index.backend!r}; accepted: 'tantivy'")


__all__ = ["HcsssQuery", "Hit", "SentenceIndex", "TantivyIndex", "open_index"]
