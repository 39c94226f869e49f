"""Opening a language's sentence vectors where `vectors.backend` keeps them: the backends
by name, each able to open vectors for a model (the embed stage) or the vectors already
stored, whatever their model (the aligner)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from parawire.config import Settings
from parawire.indexer.elasticsearch_vectors import ElasticsearchVectors
from parawire.indexer.opening import elasticsearch_of
from parawire.indexer.vector_files import VectorFiles, vectors_folder
from parawire.indexer.vector_store import VectorStore


class VectorBackend(NamedTuple):
    """How one backend opens a language's vectors."""

    # (settings, language, model, version, dimensions, reset)
    for_model: Callable[[Settings, str, str, str, int, bool], VectorStore]
    # (settings, language)
    existing: Callable[[Settings, str], VectorStore]


VECTOR_BACKENDS: dict[str, VectorBackend] = {
    "files": VectorBackend(
        lambda settings, language, model, version, dimensions, reset: VectorFiles(
            vectors_folder(settings.data_dir, language), model, version, dimensions, reset),
        lambda settings, language: VectorFiles.existing(
            vectors_folder(settings.data_dir, language))),
    "elasticsearch": VectorBackend(
        lambda settings, language, model, version, dimensions, reset: ElasticsearchVectors(
            elasticsearch_of(settings), language, model, version, dimensions, reset),
        lambda settings, language: ElasticsearchVectors.existing(
            elasticsearch_of(settings), language)),
}


def vectors_for_model(settings: Settings, language: str, model: str, version: str,
                      dimensions: int, reset: bool = False) -> VectorStore:
    """A language's vectors for this model (another model's: an error, or with `reset`
    emptied and taken over)."""
    return VECTOR_BACKENDS[settings.vectors.backend].for_model(settings, language, model,
                                                                version, dimensions, reset)


def stored_vectors(settings: Settings, language: str) -> VectorStore:
    """The vectors already stored for a language (one line naming `parawire embed` when
    there are none)."""
    return VECTOR_BACKENDS[settings.vectors.backend].existing(settings, language)
