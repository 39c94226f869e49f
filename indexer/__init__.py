"""Sentence indexes: the SentenceIndex protocol, its backends, and the index stage; with
Elasticsearch, the stories and pairs views beside the sentences."""

from parawire.indexer.elasticsearch_index import ElasticsearchIndex
from parawire.indexer.es_views import ElasticsearchViews
from parawire.indexer.filling import fill_index
from parawire.indexer.opening import open_index, open_views
from parawire.indexer.protocol import HcsssQuery, Hit, IndexStats, SentenceIndex
from parawire.indexer.stage import INDEX, IndexScope
from parawire.indexer.tantivy_index import TantivyIndex

__all__ = ["INDEX", "ElasticsearchIndex", "ElasticsearchViews", "HcsssQuery", "Hit",
           "IndexScope", "IndexStats", "SentenceIndex", "TantivyIndex", "fill_index",
           "open_index", "open_views"]
