"""Sentence features from a parse held in a spaCy Doc: nouns, names and their entity keys,
collocations.

Every backend hands its parse over as a spaCy Doc (the Stanza backend converts its
Documents), so the features below are computed one way for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import suppress
from typing import Any

from parawire.nlp.entities import UNLABELLED, ArticleEntities, mention
from parawire.nlp.names import name_runs, trim_titles
from parawire.nlp.resources import LanguageResources, language_resources
from parawire.nlp.segment import titled
from parawire.records import TITLE_POSITION, Article, Collocation, Sentence

# Sentences with fewer words (datelines, bylines, captions) are not kept.
MIN_WORDS = 4
# Doc.user_data key of {first token index: original text} for sentences whose tokens are not
# their surface text (a Stanza multi-word token: "del" parsed as "de" + "el").
SENTENCE_TEXTS = "parawire.sentence_texts"

# Entity types whose spans are names: a multi-token name counts once, as one unit.
NAME_LABELS = frozenset({
    "PERSON", "PER", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "PRODUCT", "WORK_OF_ART",
    "LAW", "MISC",
})
_LEADING_DROPS = frozenset({"DET", "PART", "PUNCT"})


def normal_form(tokens: Iterable[Any]) -> str:
    """Lemmas of a unit, case-folded (accents kept), spaced as the text ("d'italia"), without
    leading articles or a trailing 's."""
    parts = list(tokens)
    while parts and parts[0].pos_ in _LEADING_DROPS:
        parts = parts[1:]
    while parts and (parts[-1].pos_ in _LEADING_DROPS or parts[-1].tag_ == "POS"):
        parts = parts[:-1]
    return "".join((t.lemma_ or t.text).casefold() + (" " if t.whitespace_ else "")
                   for t in parts).strip()


def name_units(sent: Any, ents: list[Any], language: str = "") -> list[tuple[list[Any], str]]:
    """A sentence's names (`sent`: its span or its list of tokens), each as its tokens and
    entity label: name entities (`ents`, the sentence's) that hold a proper noun, then the
    names of the PROPN tokens left (label ""; nlp/names.py: the only names of a pipeline
    without NER), leading titles trimmed."""
    units: list[tuple[list[Any], str]] = []
    covered: set[int] = set()
    for ent in ents:
        if ent.label_ in NAME_LABELS and any(t.pos_ == "PROPN" for t in ent):
            units.append((list(ent), ent.label_))
            covered.update(t.i for t in ent)
    resources = language_resources(language)
    for run in name_runs(sent, covered):
        if trimmed := trim_titles(run, resources):
            units.append((trimmed, UNLABELLED))
    return units


def surface_names(units: list[tuple[list[Any], str]]) -> list[str]:
    """The surface names of a sentence's name units, in normal form."""
    return sorted({form for tokens, _ in units if (form := normal_form(tokens))})


def proper_nouns(sent: Any, ents: list[Any], language: str = "") -> list[str]:
    """A sentence's names as written (normal form): `surface_names` of its `name_units`."""
    return surface_names(name_units(sent, ents, language))


def entity_keys(units: list[tuple[list[Any], str]], entities: ArticleEntities,
                resources: LanguageResources) -> list[str]:
    """PN(s): the entity keys of a sentence's name units, resolved within its article."""
    return entities.keys(mention(tokens, label, resources) for tokens, label in units)


def common_nouns(tokens: Iterable[Any], language: str = "") -> list[str]:
    """CN(s): lemmas of a sentence's common nouns (its tokens), case-folded, without stop
    words (spaCy's and the language's resources) and stray symbols."""
    stop_words = language_resources(language).stop_words
    return sorted({
        lemma
        for t in tokens
        if t.pos_ == "NOUN" and not t.is_stop and len(t.lemma_) > 1
        and (lemma := t.lemma_.casefold()) not in stop_words and any(map(str.isalpha, lemma))
    })


def noun_chunks(doc: Any) -> list[Any]:
    """The doc's noun chunks, or none where the language has no noun-chunk iterator."""
    with suppress(NotImplementedError, ValueError):
        return list(doc.noun_chunks)
    return []


def collocations(chunks: list[Any], ents: list[Any]) -> list[Collocation]:
    """Multi-word units: a sentence's noun chunks and multi-token entity spans."""
    spans = [*chunks, *(ent for ent in ents if len(ent) > 1)]
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


# Universal Dependencies relations of a noun's left modifiers inside its base noun phrase.
_UD_NP_MODIFIERS = frozenset({"det", "amod", "compound", "nummod", "flat", "nmod:poss", "det:poss"})
_UD_NAME_PARTS = frozenset({"compound", "flat", "flat:name", "fixed"})


def ud_noun_chunks(doclike: Any) -> Iterator[tuple[int, int, str]]:
    """Base noun phrases of a Universal Dependencies parse, as spaCy noun-chunk triples.

    A phrase runs from the leftmost contiguous modifier of a noun (determiners, adjectives,
    numbers, compounds, possessors with their 's) through the noun and the parts of its name
    to its right; phrases inside another phrase are dropped."""
    spans: list[tuple[int, int]] = []
    for token in doclike:
        if token.pos_ not in ("NOUN", "PROPN") or token.dep_ in _UD_NAME_PARTS:
            continue
        start = token.i
        for child in reversed(list(token.lefts)):
            if child.dep_ not in _UD_NP_MODIFIERS or child.right_edge.i != start - 1:
                break
            start = child.left_edge.i
        end = token.i + 1
        for child in token.rights:
            if child.dep_ not in _UD_NAME_PARTS or child.left_edge.i != end:
                break
            end = child.right_edge.i + 1
        spans.append((start, end))
    for start, end in spans:
        if not any(s <= start and end <= e and (s, e) != (start, end) for s, e in spans):
            yield start, end, "NP"


def sentence_record(article: Article, position: int, sent: Any, chunks: list[Any],
                    ents: list[Any], entities: ArticleEntities) -> Sentence | None:
    """The annotated Sentence of one parsed sentence span (with its noun chunks and entity
    spans, its names resolved among the article's), or None for a too-short line."""
    every = list(sent)  # spaCy makes a new Token object on each access: once per sentence
    if sum(not (t.is_punct or t.is_space) for t in every) < MIN_WORDS:
        return None
    units = name_units(every, ents, article.language)
    tokens = [t for t in every if not t.is_space]
    assert article.id is not None
    return Sentence(
        article_id=article.id,
        position=position,
        text=sent.doc.user_data.get(SENTENCE_TEXTS, {}).get(sent.start, sent.text).strip(),
        tokens=[t.text for t in tokens],
        lemmas=[t.lemma_ for t in tokens],
        pos=[t.pos_ for t in tokens],
        entities=[(ent.text, ent.label_) for ent in ents],
        proper_nouns=surface_names(units),
        entity_keys=entity_keys(units, entities, language_resources(article.language)),
        common_nouns=common_nouns(tokens, article.language),
        collocations=collocations(chunks, ents),
        language=article.language,
        topic=article.topic,
        published=article.published,
        source=article.source,
    )


def parsed_article_sentences(article: Article, docs: list[Any]) -> list[Sentence]:
    """An article's annotated sentences from the Docs of its `parsed_texts`, in their order
    (the title's first, when it has one)."""
    if titled(article):
        return article_sentences(article, docs[1:], title=docs[0])
    return article_sentences(article, docs)


def article_sentences(article: Article, docs: Iterable[Any],
                      title: Any | None = None) -> list[Sentence]:
    """An article's annotated sentences from its passages' Docs, numbered in order, and from
    its title's Doc, when given, one sentence, whole, at TITLE_POSITION (its names resolved
    among the article's).

    Noun chunks and entities are read once per Doc: spaCy's per-sentence versions go over
    the whole Doc for each sentence."""
    sentences: list[Sentence] = []
    entities = ArticleEntities()
    for doc in docs:
        chunks, ents = noun_chunks(doc), list(doc.ents)
        for sent in doc.sents:
            sentence = sentence_record(article, len(sentences), sent, _inside(chunks, sent),
                                       _inside(ents, sent), entities)
            if sentence is not None:
                sentences.append(sentence)
    if title is not None:
        headline = sentence_record(article, TITLE_POSITION, title[:], noun_chunks(title),
                                   list(title.ents), entities)
        if headline is not None:  # whole, however the parser split it
            headline.text = article.title.strip()
            sentences.insert(0, headline)
    return sentences


def _inside(spans: list[Any], sent: Any) -> list[Any]:
    return [span for span in spans if sent.start <= span.start and span.end <= sent.end]
