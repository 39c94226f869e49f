"""The default Annotator, on a spaCy pipeline."""

from __future__ import annotations

import importlib.util
import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from functools import lru_cache, partial
from multiprocessing.pool import AsyncResult
from pathlib import Path

from parawire.errors import ParawireError
from parawire.iterate import batched
from parawire.nlp.features import parsed_article_sentences
from parawire.nlp.segment import parsed_texts
from parawire.records import Article, Sentence

# The components whose output the features read: POS and lemmas (tagger, morphologizer,
# attribute_ruler, lemmatizer), sentences (sentencizer, where a pipeline trained here chose
# it, and parser) and noun chunks (parser), names (ner), and the
# shared embeddings they listen to. Anything else a model ships is disabled.
NEEDED_COMPONENTS = frozenset({
    "sentencizer", "tok2vec", "transformer", "tagger", "morphologizer", "attribute_ruler",
    "lemmatizer", "trainable_lemmatizer", "parser", "ner",
})
# The most articles a worker process parses and annotates per task (nlp.processes > 1):
# few, so that the workers finish the last tasks together.
ARTICLES_PER_TASK = 8
# Tasks queued per worker beyond the results read: enough that no worker waits while the
# caller stores sentences, few enough to bound the articles held in memory.
TASKS_AHEAD = 4
# Articles whose paragraphs go through one nlp.pipe stream when annotating in-process.
ARTICLES_IN_PROCESS = 64


@lru_cache(maxsize=8)
def load_spacy_model(name: str, language: str):
    """Load a spaCy pipeline, an installed package or a folder (one trained with `parawire nlp
    train-pipeline`), with only the needed components (once per process: a worker reuses it
    from one annotate task to the next), or fail with the command that makes one."""
    import spacy

    path = Path(name).expanduser()
    if path.is_dir():
        nlp = spacy.load(path)
    elif name.isidentifier() and importlib.util.find_spec(name) is not None:
        nlp = spacy.load(name)
    else:
        raise ParawireError(missing_model_message(name, language))
    for component in nlp.pipe_names:
        if component not in NEEDED_COMPONENTS:
            nlp.disable_pipe(component)
    return nlp


def missing_model_message(name: str, language: str) -> str:
    """What to do when nlp.models.<language> names no installed package and no folder: train
    a pipeline here from a treebank (installing a model package from the index can replace
    the spaCy and pydantic versions parawire needs)."""
    return (f"spaCy pipeline {name!r} for language {language!r} is neither an installed "
            f"package nor a folder: train one from a Universal Dependencies treebank with "
            f"`parawire nlp train-pipeline --lang {language} --train TRAIN.conllu --dev "
            f"DEV.conllu --out models/{language}` and set nlp.models.{language} = "
            f"\"models/{language}\"")


class SpacyAnnotator:
    """Annotates one language's articles with a spaCy model."""

    def __init__(self, model_name: str, language: str, batch_size: int = 64,
                 processes: int = 1) -> None:
        self.model_name = model_name
        self.language = language
        self.batch_size = batch_size
        self.processes = processes
        self.nlp = load_spacy_model(model_name, language)

    def annotate(self, articles: Iterable[Article]) -> Iterator[tuple[Article, list[Sentence]]]:
        """Sentences of each article, in input order, paragraph by paragraph so none crosses
        a break; the input is read lazily, a few tasks ahead of what is yielded. With
        processes > 1 (outside a daemonic process), worker processes each parse and annotate a
        few articles at a time and send back their Sentences (the Docs never leave the
        worker), and they go on with the next articles while the caller stores the last."""
        work = partial(annotate_articles, self.model_name, self.language, self.batch_size)
        if self.processes == 1 or multiprocessing.current_process().daemon:
            # A daemonic process (a Celery prefork pool process) may not start processes:
            # there the worker pool's concurrency is the parallelism.
            for chunk in batched(articles, ARTICLES_IN_PROCESS):
                yield from zip(chunk, work(chunk), strict=True)
            return
        with _worker_context().Pool(self.processes) as pool:
            in_flight: deque[tuple[list[Article], AsyncResult]] = deque()
            for chunk in batched(articles, ARTICLES_PER_TASK):
                in_flight.append((chunk, pool.apply_async(work, (chunk,))))
                if len(in_flight) >= TASKS_AHEAD * self.processes:
                    done, result = in_flight.popleft()
                    yield from zip(done, result.get(), strict=True)
            while in_flight:
                done, result = in_flight.popleft()
                yield from zip(done, result.get(), strict=True)


def annotate_articles(model_name: str, language: str, batch_size: int,
                      articles: list[Article]) -> list[list[Sentence]]:
    """Each article's sentences: the paragraphs of all the articles go through nlp.pipe as
    one stream (in a worker process too: the model is loaded once per process)."""
    nlp = load_spacy_model(model_name, language)
    docs: list[list] = [[] for _ in articles]
    stream = ((text, k) for k, article in enumerate(articles) for text in parsed_texts(article))
    for doc, k in nlp.pipe(stream, as_tuples=True, batch_size=batch_size):
        docs[k].append(doc)
    return [parsed_article_sentences(article, article_docs)
            for article, article_docs in zip(articles, docs, strict=True)]


def _worker_context() -> multiprocessing.context.BaseContext:
    """Workers forked from a fork server, a fresh single-threaded process that has imported
    this module: a fork of the caller itself may hang when another of its threads holds a
    lock at that moment (a web client's event loop, torch's thread pool). Each worker loads
    the model once. Where there is no fork server, workers are spawned."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context
