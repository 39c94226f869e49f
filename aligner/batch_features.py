"""The pair model's features of many pairs at once: each distinct sentence embedded once
(its sentence vector and its words' vectors), then each pair's features (pair_features)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from parawire.aligner.coverage import Words, sentence_words
from parawire.aligner.pair_features import pair_features
from parawire.nlp import Embedder
from parawire.records import Sentence

EmbedderOf = Callable[[str], Embedder]


def featurize(pairs: Sequence[tuple[Sentence, Sentence, Mapping[str, float]]],
              embedder_of: EmbedderOf) -> list[dict[str, float]]:
    """The features of each (a, b, source features) pair; each language's sentences are
    embedded by that language's embedder (a pair's language is its side a's)."""
    by_language: dict[str, dict[str, Sentence]] = {}
    for a, b, _ in pairs:
        texts = by_language.setdefault(a.language or "en", {})
        texts.setdefault(a.text, a)
        texts.setdefault(b.text, b)
    vectors: dict[tuple[str, str], object] = {}
    words: dict[tuple[str, str], Words] = {}
    for language, sentences in by_language.items():
        embedder = embedder_of(language)
        texts = list(sentences)
        encoded, token_vectors = embedder.vectors_and_tokens(texts)
        for text, row, tokens in zip(texts, encoded, token_vectors, strict=True):
            vectors[(language, text)] = row
            words[(language, text)] = sentence_words(sentences[text], tokens)
    rows = []
    for a, b, source in pairs:
        language = a.language or "en"
        key_a, key_b = (language, a.text), (language, b.text)
        cosine = float(vectors[key_a] @ vectors[key_b])  # type: ignore[operator]
        rows.append(pair_features(a, b, words[key_a], words[key_b], cosine, source))
    return rows
