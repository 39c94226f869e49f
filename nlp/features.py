"""Sentence features from a spaCy-style parse: nouns, names, collocations."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress
from typing import Any

from parawire.records import Collocation

# Entity types whose spans are names: a multi-token name counts once, as one unit.
NAME_LABELS = frozenset({
    "PERSON", "PER", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "PRODUCT", "WORK_OF_ART",
    "LAW", "MISC",
})
_LEADING_DROPS = frozenset({"DET", "PART", "PUNCT"})


def normal_form(tokens: Iterable[Any]) -> str:
    """Lemmas of a unit, case-folded (accents kept), without leading articles or a trailing 's."""
    parts = list(tokens)
    while parts and parts[0].pos_ in _LEADING_DROPS:
        parts = parts[1:]
    while parts and (parts[-1].pos_ in _LEADING_DROPS or parts[-1].tag_ == "POS"):
        parts = parts[:-1]
    return " ".join((t.lemma_ or t.text).casefold() for t in parts).strip()


def proper_nouns(sent: Any) -> list[str]:
    """PN(s): name entities that hold a proper noun, then leftover runs of PROPN tokens."""
    units: list[str] = []
    covered: set[int] = set()
    for ent in sent.ents:
        if ent.label_ in NAME_LABELS and any(t.pos_ == "PROPN" for t in ent):
            form = normal_form(ent)
            if form:
                units.append(form)
            covered.update(t.i for t in ent)
    run: list[Any] = []
    for token in [*sent, None]:
        if token is not None and token.pos_ == "PROPN" and token.i not in covered:
            run.append(token)
            continue
        if run:
            form = normal_form(run)
            if form:
                units.append(form)
            run = []
    return sorted(set(units))


def common_nouns(sent: Any) -> list[str]:
    """CN(s): lemmas of common nouns, case-folded, without stop words and stray symbols."""
    return sorted({
        t.lemma_.casefold()
        for t in sent
        if t.pos_ == "NOUN" and not t.is_stop and any(ch.isalpha() for ch in t.lemma_)
        and len(t.lemma_) > 1
    })


def collocations(sent: Any) -> list[Collocation]:
    """Multi-word units: noun chunks and multi-token entity spans."""
    spans: list[Any] = []
    with suppress(NotImplementedError, ValueError):  # no noun-chunk iterator for the language
        spans.extend(sent.noun_chunks)
    spans.extend(ent for ent in sent.ents if len(ent) > 1)
    found: dict[str, Collocation] = {}
    for span in spans:
        words = [t for t in span if not t.is_punct]
        if len(words) < 2:
            continue
        found.setdefault(span.text, Collocation(
            text=span.text,
            lemma=" ".join(t.lemma_.casefold() for t in words),
            pos=" ".join(t.pos_ for t in words),
        ))
    return list(found.values())
