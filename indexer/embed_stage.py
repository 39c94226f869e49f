"""The embed stage: a sentence vector, once, for each sentence the aligner's dense source can
pair (or every sentence: `vectors.embed`), by the model [vectors] names for its language
(nlp's Embedder), kept where `vectors.backend` says (a VectorStore)."""

from __future__ import annotations

from collections import Counter

from parawire.config import Settings
from parawire.indexer.vector_opening import vectors_for_model
from parawire.indexer.vector_store import VectorStore
from parawire.nlp import Embedder, embedder_for
from parawire.pairable import one_sided_rule
from parawire.records import Sentence
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import store_of


class EmbedScope(Scope):
    """Embed the sentences without a vector (all of them on --redo or a model change)."""

    redo: bool = option(False, "Recompute every vector.")


def _flush(files: VectorStore, embedder: Embedder, batch: list[Sentence],
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


def pairable_scope(settings: Settings) -> tuple[int, int]:
    """The fewest words, and the fewest outlets of its story, of a sentence that is given a
    vector (0, 0: every sentence, whatever rule it breaks)."""
    if settings.vectors.embed == "all":
        return 0, 0
    align = settings.align
    return align.dense_min_words, 2 if align.within == "story" else 0


def left_out(sentence: Sentence, min_words: int) -> str | None:
    """Why a sentence in scope gets no vector, as a count's name, or None: empty, too short,
    or breaking a rule of its own (parawire/pairable.py) when the scope is "pairable"."""
    if not sentence.text.strip():
        return "skipped_empty"
    if len(sentence.text.split()) < min_words:
        return "left_out_short"
    rule = one_sided_rule(sentence) if min_words else None  # min_words 0: embed = "all"
    return f"left_out_{rule}" if rule else None


def embed(settings: Settings, scope: EmbedScope) -> Counts:
    """Append the vectors that the sentences in `vectors.embed`'s scope lack (an interrupted
    run resumes after the last whole row; an article that joins a story of another outlet
    later has its sentences embedded then); empty texts get none and are counted, and so are
    the sentences left out as too short, as breaking a rule of their own (a fragment, a piece
    of a quotation, a link line, a line without an end mark: in no pair whatever their
    partner) or in no story of two outlets."""
    store = store_of(settings)
    last = store.last_sentence_id()
    min_words, min_outlets = pairable_scope(settings)
    counts: Counter[str] = Counter()
    opened: dict[str, tuple[VectorStore, Embedder, list[Sentence]]] = {}

    def files_of(language: str) -> tuple[VectorStore, Embedder, list[Sentence]]:
        if language not in opened:
            embedder = embedder_for(settings.vectors, settings.data_dir, language)
            files = vectors_for_model(settings, language, embedder.name, embedder.version,
                                      embedder.dimensions, reset=True)
            if scope.redo:
                files.clear()
            files.check_store(last)
            opened[language] = (files, embedder, [])
        return opened[language]

    for language in store.sentence_languages():  # a model changed: its files are emptied
        files_of(language)
    chunk = max(settings.vectors.batch_size * 16, 256)
    in_scope = 0
    for batch in store.iter_sentences(min_story_outlets=min_outlets):
        in_scope += len(batch)
        for language in sorted({s.language for s in batch}):
            files, embedder, pending = files_of(language)
            mine = [s for s in batch if s.language == language]
            for sentence, held in zip(mine, files.held([s.id for s in mine]), strict=True):
                if held:
                    continue
                reason = left_out(sentence, min_words)
                if reason:
                    counts[reason] += 1
                else:
                    pending.append(sentence)
            if len(pending) >= chunk:
                _flush(files, embedder, pending, counts)
    for files, embedder, pending in opened.values():
        _flush(files, embedder, pending, counts)
    counts["left_out_no_story"] = store.count_sentences() - in_scope
    counts["vectors"] = sum(files.count() for files, _, _ in opened.values())
    result: Counts = dict(counts)
    if min_outlets and not in_scope and counts["left_out_no_story"]:
        result["note"] = ("nothing to embed: no sentence is in a story of two or more outlets "
                          "(run `parawire stories` first, or set vectors.embed = \"all\")")
    return result


EMBED = Stage(name="embed", summary="Compute the vectors of the sentences the aligner can pair.",
              scope=EmbedScope, work=embed)
