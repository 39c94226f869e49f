"""How a Sentence becomes an index document, the same for every backend."""

from __future__ import annotations

from typing import Any

from parawire.records import Sentence
from parawire.textnorm import verbatim_key


def document(sentence: Sentence) -> dict[str, Any]:
    """The indexed fields of one sentence."""
    return {
        "id": sentence.id,
        "article_id": sentence.article_id,
        "text": sentence.text,
        "lemmas": " ".join(sentence.lemmas),
        "pn": sorted(sentence.pn),
        "n_pn": len(sentence.pn),
        "cn": sorted(set(sentence.common_nouns)),
        "entity_types": sorted({label for _, label in sentence.entities}),
        "language": sentence.language,
        "topic": sentence.topic,
        "source": sentence.source,
        "day": sentence.published.toordinal() if sentence.published else None,
        "vkey": verbatim_key(sentence.text),
    }
