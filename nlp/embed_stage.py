"""The embed stage: a sentence vector for every stored sentence, once, in the vector files of
its language (indexer's VectorFiles), by the model [vectors] names for that language."""

from __future__ import annotations

from collections import Counter

from parawire.config import Settings
from parawire.nlp.embedders import embedder_for
from parawire.nlp.embedding import Embedder
from parawire.nlp.vector_files import VectorFiles, vectors_folder
from parawire.records import Sentence
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import store_of


class EmbedScope(Scope):
    """Embed the sentences without a vector (all of them on --redo or a model change)."""

    redo: bool = option(False, "Recompute every vector.")


def _flush(files: VectorFiles, embedder: Embedder, batch: list[Sentence],
           counts: Counter[str]) -> None:
    """Embed a batch and append it; counts the texts the model cuts."""
    if not batch:
        return
    texts = [s.text for s in batch]
    truncated = getattr(embedder, "truncated", None)
    counts["truncated"] += truncated(texts) if truncated is not None else 0
    files.add([s.id for s in batch if s.id is not None], embedder.encode(texts))
    counts["embedded"] += len(batch)
    batch.clear()


def embed(settings: Settings, scope: EmbedScope) -> Counts:
    """Append the vectors of the sentences each language's files lack (an interrupted run
    resumes after the last whole row); empty texts get none and are counted. Only the
    sentences above the lowest id a language's files end at are read."""
    store = store_of(settings)
    last = store.last_sentence_id()
    counts: Counter[str] = Counter()
    opened: dict[str, tuple[VectorFiles, Embedder, list[Sentence]]] = {}

    def files_of(language: str) -> tuple[VectorFiles, Embedder, list[Sentence]]:
        if language not in opened:
            embedder = embedder_for(settings.vectors, settings.data_dir, language)
            files = VectorFiles(vectors_folder(settings.data_dir, language), embedder.name,
                                embedder.version, embedder.dimensions, reset=True)
            if scope.redo:
                files.clear()
            files.check_store(last)
            opened[language] = (files, embedder, [])
        return opened[language]

    # A language first stored after this point has only sentences above `last`.
    start = min((files_of(language)[0].last_id() for language in store.sentence_languages()),
                default=last)
    chunk = max(settings.vectors.batch_size * 16, 256)
    for batch in store.iter_sentences(after_id=start):
        for sentence in batch:
            files, embedder, pending = files_of(sentence.language)
            assert sentence.id is not None
            if sentence.id <= files.last_id():
                continue
            if not sentence.text.strip():
                counts["skipped_empty"] += 1
                continue
            pending.append(sentence)
            if len(pending) >= chunk:
                _flush(files, embedder, pending, counts)
    for files, embedder, pending in opened.values():
        _flush(files, embedder, pending, counts)
    counts["vectors"] = sum(files.count() for files, _, _ in opened.values())
    return dict(counts)


EMBED = Stage(name="embed", summary="Compute the sentence vectors the vector files lack.",
              scope=EmbedScope, work=embed)
