"""The Stanza Annotator: Stanza parses, and each Document is handed to the shared features
as a spaCy Doc built from its words, tags, lemmas, dependencies and entities."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from parawire.errors import ParawireError
from parawire.iterate import batched
from parawire.nlp.features import SENTENCE_TEXTS, parsed_article_sentences, ud_noun_chunks
from parawire.nlp.segment import parsed_texts
from parawire.records import Article, Sentence

PROCESSORS = "tokenize,mwt,pos,lemma,depparse,ner"


def stanza_vocab(language: str):
    """A spaCy vocabulary for Stanza parses: the language's stop words and lexical
    attributes, and noun chunks read from Universal Dependencies relations."""
    import spacy

    try:
        vocab = spacy.blank(language).vocab
    except ImportError:  # a language spaCy has no defaults for
        vocab = spacy.blank("xx").vocab
    vocab.get_noun_chunks = ud_noun_chunks
    return vocab


def spacy_doc(document: Any, vocab: Any):
    """A Stanza Document as a spaCy Doc: one token per syntactic word (a multi-word token
    such as French "du" gives "de" and "le"), sentences from the parse, entities as spans."""
    from spacy.tokens import Doc

    words: list[str] = []
    spaces: list[bool] = []
    pos: list[str] = []
    tags: list[str] = []
    lemmas: list[str] = []
    heads: list[int] = []
    deps: list[str] = []
    sent_starts: list[bool] = []
    ents: list[str] = []
    texts: dict[int, str] = {}
    for sentence in document.sentences:
        offset = len(words)
        if sentence.text:
            texts[offset] = sentence.text
        labels = _entity_labels(sentence)
        for token in sentence.tokens:
            for k, word in enumerate(token.words):
                last = k == len(token.words) - 1
                words.append(word.text)
                spaces.append(last and bool(token.spaces_after))
                pos.append(word.upos or "X")
                tags.append(word.xpos or "")
                lemmas.append(word.lemma or word.text)
                # the root heads itself; a word without a parse too (then heads are unused)
                heads.append(offset + word.head - 1 if word.head else len(words) - 1)
                deps.append((word.deprel or "dep") if word.head else "ROOT")
                sent_starts.append(len(words) - 1 == offset)
                label = labels.get(id(token))
                ents.append("O" if label is None else f"{label[0] if k == 0 else 'I'}-{label[1]}")
    parsed = any(word.head is not None for word in document.iter_words())
    doc = Doc(vocab, words=words, spaces=spaces, pos=pos, tags=tags, lemmas=lemmas,
              heads=heads if parsed else None, deps=deps if parsed else None,
              sent_starts=None if parsed else sent_starts, ents=ents)
    doc.user_data[SENTENCE_TEXTS] = texts
    return doc


def _entity_labels(sentence: Any) -> dict[int, tuple[str, str]]:
    """Token (by id) -> (IOB letter of its first word, entity type), from the sentence's
    entity spans."""
    labels: dict[int, tuple[str, str]] = {}
    for ent in sentence.ents:
        for k, token in enumerate(ent.tokens):
            labels[id(token)] = ("B" if k == 0 else "I", ent.type)
    return labels


def load_stanza_pipeline(language: str, model_dir: str = "", package: str = "default"):
    """A Stanza pipeline from models already on disk (nothing is downloaded), or a one-line
    error that says what to install."""
    import stanza
    from stanza.resources.common import DEFAULT_MODEL_DIR

    folder = Path(model_dir or DEFAULT_MODEL_DIR)
    if not (folder / "resources.json").is_file() or not (folder / language).is_dir():
        raise ParawireError(
            f"Stanza models for language {language!r} are not installed under {folder}: "
            f"python -c \"import stanza; stanza.download('{language}', dir='{folder}')\" "
            f"(or set nlp.stanza_dir, or nlp.backends.{language} = \"spacy\")"
        )
    try:
        return stanza.Pipeline(language, dir=str(folder), package=package, processors=PROCESSORS,
                               download_method=None, logging_level="WARN")
    except (FileNotFoundError, ValueError) as exc:
        raise ParawireError(f"Stanza pipeline for language {language!r} cannot load: "
                            f"{str(exc).splitlines()[0]}") from exc


class StanzaAnnotator:
    """Annotates one language's articles with a Stanza pipeline."""

    def __init__(self, pipeline: Any, language: str, batch_size: int = 64) -> None:
        self.language = language
        self.batch_size = batch_size
        self.pipeline = pipeline
        self.vocab = stanza_vocab(language)

    def annotate(self, articles: Iterable[Article]) -> Iterator[tuple[Article, list[Sentence]]]:
        """Sentences of each article, paragraph by paragraph; the input is read lazily,
        batch_size articles at a time, and their paragraphs go to the pipeline in bulks of
        batch_size."""
        for chunk in batched(articles, self.batch_size):
            yield from self._annotate_chunk(chunk)

    def _annotate_chunk(self, articles: list[Article]
                        ) -> Iterator[tuple[Article, list[Sentence]]]:
        texts = [(k, text) for k, article in enumerate(articles) for text in parsed_texts(article)]
        docs: list[list] = [[] for _ in articles]
        for start in range(0, len(texts), self.batch_size):
            bulk = texts[start:start + self.batch_size]
            for (k, _), document in zip(bulk, self.pipeline.bulk_process([t for _, t in bulk]),
                                        strict=True):
                docs[k].append(spacy_doc(document, self.vocab))
        for article, article_docs in zip(articles, docs, strict=True):
            yield article, parsed_article_sentences(article, article_docs)
