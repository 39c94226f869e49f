"""Sentence indexes: the SentenceIndex protocol, its backends, and the index stage; with
Elasticsearch, the stories and pairs views beside the sentences; sentence vectors (the
VectorStore protocol, its backends, and the embed stage)."""

from parawire.indexer.elasticsearch_index import ElasticsearchIndex
from parawire.indexer.elasticsearch_vectors import ElasticsearchVectors
from parawire.indexer.embed_stage import EMBED, EmbedScope
from parawire.indexer.es_views import ElasticsearchViews
from parawire.indexer.filling import fill_index
from parawire.indexer.opening import open_index, open_views
from parawire.indexer.protocol import HcsssQuery, Hit, IndexStats, SentenceIndex
from parawire.indexer.stage import INDEX, IndexScope
from parawire.indexer.tantivy_index import TantivyIndex
from parawire.indexer.vector_files import VectorFiles, vectors_folder
from parawire.indexer.vector_opening import VECTOR_BACKENDS, stored_vectors, vectors_for_model
from parawire.indexer.vector_store import VectorStore

__all__ = ["EMBED", "INDEX", "VECTOR_BACKENDS", "ElasticsearchIndex", "ElasticsearchVectors",
           "ElasticsearchViews", "EmbedScope", "HcsssQuery", "Hit", "IndexScope", "IndexStats",
           "SentenceIndex", "TantivyIndex", "VectorFiles", "VectorStore", "fill_index",
           "open_index", "open_views", "stored_vectors", "vectors_folder", "vectors_for_model"]
