"""The Elasticsearch side of the index layout: per-language analysis, mapping, documents."""

from __future__ import annotations

from typing import Any

from parawire.indexer.fields import document
from parawire.records import Sentence

# Elasticsearch's built-in stop word lists, by ISO 639-1 code; other languages get none.
STOP_WORDS = {
    "ar": "_arabic_", "bg": "_bulgarian_", "ca": "_catalan_", "cs": "_czech_", "da": "_danish_",
    "de": "_german_", "el": "_greek_", "en": "_english_", "es": "_spanish_", "eu": "_basque_",
    "fa": "_persian_", "fi": "_finnish_", "fr": "_french_", "ga": "_irish_", "gl": "_galician_",
    "hi": "_hindi_", "hu": "_hungarian_", "hy": "_armenian_", "id": "_indonesian_",
    "it": "_italian_", "lv": "_latvian_", "nl": "_dutch_", "no": "_norwegian_",
    "pt": "_portuguese_", "ro": "_romanian_", "ru": "_russian_", "sv": "_swedish_",
    "th": "_thai_", "tr": "_turkish_",
}
# Elided articles split from the next word ("l'avion" → "avion").
ELISIONS = {
    "fr": ["l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"],
    "it": ["c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl",
           "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d"],
    "ca": ["d", "l", "m", "n", "s", "t"],
}
_KEYWORDS = ("pn", "cn", "entity_types", "collocations", "language", "topic", "source", "vkey")
_INTEGERS = ("day", "n_tokens", "n_pn", "n_cn", "n_entities")


def analysis(language: str) -> dict[str, Any]:
    """The `parawire_text` analyzer for one language: standard words, lower case,
    elisions split off and the language's stop words dropped where known."""
    filters: dict[str, Any] = {}
    chain = []
    if language in ELISIONS:
        filters["parawire_elision"] = {"type": "elision", "articles": ELISIONS[language],
                                       "articles_case": True}
        chain.append("parawire_elision")
    chain.append("lowercase")
    if language in STOP_WORDS:
        filters["parawire_stop"] = {"type": "stop", "stopwords": STOP_WORDS[language]}
        chain.append("parawire_stop")
    analyzer = {"type": "custom", "tokenizer": "standard", "filter": chain}
    return {"filter": filters, "analyzer": {"parawire_text": analyzer}}


def mappings() -> dict[str, Any]:
    """Strict mapping: analysed text, keyword arrays, integer counts and the day as a date."""
    properties: dict[str, Any] = {
        "id": {"type": "long"},
        "article_id": {"type": "long"},
        "text": {"type": "text", "analyzer": "parawire_text"},
        "lemmas": {"type": "text", "analyzer": "parawire_text"},
        "published": {"type": "date", "format": "strict_date"},
    }
    properties.update({name: {"type": "keyword"} for name in _KEYWORDS})
    properties.update({name: {"type": "integer"} for name in _INTEGERS})
    return {"dynamic": "strict", "properties": properties}


def es_document(sentence: Sentence) -> dict[str, Any]:
    """The shared index fields plus what dashboards aggregate on: the date, collocation
    lemmas and per-sentence counts."""
    doc = document(sentence)
    doc.update(
        published=sentence.published.isoformat() if sentence.published else None,
        collocations=sorted({c.lemma for c in sentence.collocations}),
        n_tokens=len(sentence.tokens),
        n_cn=len(doc["cn"]),
        n_entities=len(sentence.entities),
    )
    return {name: value for name, value in doc.items() if value is not None}
