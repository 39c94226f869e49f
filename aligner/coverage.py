"""Directional coverage of a sentence pair (pure): each side's content words softly aligned to
the other side's words with contextual token vectors, BERTScore-style, and matched by lemma.

A word is the embedder's word pieces joined back (WordPiece's "##" continuations and
SentencePiece's "▁" word starts), its vector the normalised mean of its pieces'. A content
word is one the annotation tags NOUN, PROPN, VERB, ADJ, ADV or NUM (every word of three or
more characters where the sentence has no parts of speech)."""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

import numpy as np

from parawire.nlp import TokenVectors
from parawire.records import Sentence

CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"})
# A content word is covered by the other side when its best cosine reaches this (or its
# lemma is there); set by hand, not tuned (the soft mean is a feature beside the share).
MATCH_COSINE = 0.6


class Words(NamedTuple):
    """One side's words (normalised forms), their unit vectors (rows), which are content
    words (with the lemma of each) and which of those are common nouns."""

    forms: list[str]
    vectors: np.ndarray
    content: list[int]
    lemmas: list[str]
    nouns: frozenset[int]  # the content words tagged NOUN


class Coverage(NamedTuple):
    """How much of one side the other side states."""

    soft: float  # mean best cosine of this side's content words in the other
    share: float  # share of this side's content words the other matches
    unmatched: int  # this side's content words the other lacks
    unmatched_nouns: int  # of which common nouns (a new actor, object or event)


def fold(text: str) -> str:
    """Case-folded text without accents (as uncased word-piece vocabularies see it)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def join_pieces(tokens: TokenVectors) -> tuple[list[str], np.ndarray]:
    """Whole words from word pieces, each with the normalised mean of its pieces' vectors."""
    marks_starts = any(piece.startswith("▁") for piece in tokens.tokens)
    forms: list[str] = []
    groups: list[list[int]] = []
    for i, piece in enumerate(tokens.tokens):
        continues = (not piece.startswith("▁")) if marks_starts else piece.startswith("##")
        if continues and groups:
            forms[-1] += piece.removeprefix("##")
            groups[-1].append(i)
        else:
            forms.append(piece.lstrip("▁"))
            groups.append([i])
    width = tokens.vectors.shape[1] if tokens.vectors.ndim == 2 else 0
    if not groups:
        return [], np.zeros((0, width), dtype=np.float32)
    vectors = np.stack([tokens.vectors[g].mean(axis=0) for g in groups])
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return [fold(f) for f in forms], vectors


def sentence_words(sentence: Sentence, tokens: TokenVectors) -> Words:
    """A sentence's words with vectors, its content words marked by the annotation."""
    forms, vectors = join_pieces(tokens)
    if sentence.pos:
        tagged = list(zip(sentence.tokens, sentence.lemmas, sentence.pos, strict=False))
        lemma_of = {fold(tok): fold(lemma) for tok, lemma, pos in tagged if pos in CONTENT_POS}
        noun_forms = {fold(tok) for tok, _, pos in tagged if pos == "NOUN"}
        content = [i for i, form in enumerate(forms) if form in lemma_of]
        lemmas = [lemma_of.get(form, form) for form in forms]
        nouns = frozenset(i for i in content if forms[i] in noun_forms)
    else:
        content = [i for i, form in enumerate(forms) if len(form) >= 3 and form.isalnum()]
        lemmas, nouns = list(forms), frozenset()
    return Words(forms, vectors, content, lemmas, nouns)


def coverage(side: Words, other: Words, threshold: float = MATCH_COSINE) -> Coverage:
    """How much of `side`'s content the `other` side states (BERTScore recall of `side`
    against `other`, on content words; a lemma match counts as a cosine of 1)."""
    if not side.content:
        return Coverage(1.0, 1.0, 0, 0)
    if not other.forms:
        return Coverage(0.0, 0.0, len(side.content), len(side.nouns))
    similarity = side.vectors[side.content] @ other.vectors.T
    best = similarity.max(axis=1)
    other_lemmas = set(other.lemmas)
    best = np.array([1.0 if side.lemmas[i] in other_lemmas else float(b)
                     for i, b in zip(side.content, best, strict=True)])
    missing = [i for i, b in zip(side.content, best, strict=True) if b < threshold]
    share = (len(side.content) - len(missing)) / len(side.content)
    return Coverage(float(best.mean()), share, len(missing), sum(i in side.nouns for i in missing))
