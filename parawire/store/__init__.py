"""The store: every stage reads its input records here and writes its own."""

from parawire.store.store import ArticleOutcome, PairRow, ReviewLabel, Store, open_store

__all__ = ["ArticleOutcome", "PairRow", "ReviewLabel", "Store", "open_store"]
