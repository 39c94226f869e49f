"""Opening the index the settings name."""

from __future__ import annotations

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer.elasticsearch_index import ElasticsearchIndex
from parawire.indexer.es_views import ElasticsearchViews
from parawire.indexer.protocol import SentenceIndex
from parawire.indexer.tantivy_index import TantivyIndex


def open_index(settings: Settings, *, rebuild: bool = False) -> SentenceIndex:
    """The index the settings name: index.backend with index.path or index.url.

    `rebuild` lets a tantivy index start over even when an older schema is on disk.
    """
    config = settings.index
    if config.backend == "tantivy":
        return TantivyIndex(settings.index_path, recreate=rebuild)
    if config.backend == "elasticsearch":
        return elasticsearch_of(settings)
    raise ParawireError(
        f"unknown index.backend {config.backend!r}; accepted: 'tantivy', 'elasticsearch'")


def elasticsearch_of(settings: Settings) -> ElasticsearchIndex:
    """The Elasticsearch cluster [index] names (index.url, prefix and client options), for
    its sentences or for the vectors beside them."""
    config = settings.index
    return ElasticsearchIndex(
        config.url, config.prefix, compatible_media_types=config.compatible_media_types,
        request_timeout=config.request_timeout, bulk_chunk=config.bulk_chunk,
        bulk_retries=config.bulk_retries,
    )


def open_views(settings: Settings) -> ElasticsearchViews | None:
    """The stories and pairs views beside an Elasticsearch index (None with tantivy)."""
    if settings.index.backend != "elasticsearch":
        return None
    index = open_index(settings)
    assert isinstance(index, ElasticsearchIndex)
    return ElasticsearchViews(index)
