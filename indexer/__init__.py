"""Sentence indexes: the SentenceIndex protocol, its backends, and the index stage."""

from parawire.indexer.elasticsearch_index import ElasticsearchIndex
from parawire.indexer.filling import fill_index
from parawire.indexer.opening import open_index
from parawire.indexer.protocol import HcsssQuery, Hit, IndexStats, SentenceIndex
from parawire.indexer.stage import INDEX, IndexScope
from parawire.indexer.tantivy_index import TantivyIndex

__all__ = ["INDEX", "ElasticsearchIndex", "HcsssQuery", "Hit", "IndexScope", "IndexStats",
           "SentenceIndex", "TantivyIndex", "fill_index", "open_index"]
