"""Labelled texts as sentences, for training and evaluating the pair model."""

from __future__ import annotations

from collections.abc import Sequence

from parawire.records import Sentence


def as_one_sentence(parts: Sequence[Sentence], text: str, sentence_id: int) -> Sentence:
    """A labelled text annotated as one or more sentences, as one sentence with the features
    of all its parts (a labelled pair compares whole texts)."""
    first = parts[0] if parts else Sentence(article_id=0, position=0, text=text)
    return Sentence(
        id=sentence_id, article_id=first.article_id, position=0, text=text,
        tokens=[t for s in parts for t in s.tokens], lemmas=[t for s in parts for t in s.lemmas],
        pos=[t for s in parts for t in s.pos], entities=[e for s in parts for e in s.entities],
        proper_nouns=sorted({n for s in parts for n in s.proper_nouns}),
        entity_keys=sorted({n for s in parts for n in s.entity_keys}),
        common_nouns=sorted({n for s in parts for n in s.common_nouns}),
        language=first.language, topic=first.topic, published=first.published,
        source=first.source)
