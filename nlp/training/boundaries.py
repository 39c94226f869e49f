"""Where a trained pipeline's sentences end: its parser's boundaries, or a punctuation rule's
set before the parser when that splits the dev data better.

A parser trained on a few hundred treebank sentences hardly learns sentence boundaries (it
cuts clauses into pieces: sentence F of 0.11 in Spanish and 0.01 in Dutch for the tests'
tiny pipelines, on 500 treebank sentences after the 400 they learn from), while spaCy's
`sentencizer` splits the same text at its end marks (0.92 and 0.83). The parser keeps
boundaries set before it, so adding the rule first gives whole sentences and the same
parses within them. Which one a pipeline uses is measured on its dev data, never assumed:
a parser trained on a full treebank is kept when it splits better (abbreviations, quotes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parawire.nlp.training.corpus import in_vocab

RULE = "sentencizer"  # spaCy's punctuation splitter (its default end marks of many scripts)


@dataclass(frozen=True)
class BoundaryChoice:
    """The boundaries a pipeline uses (`parser` or `sentencizer`) and the dev sentence F
    of each."""

    by: str
    parser_f: float
    sentencizer_f: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def choose_boundaries(model: Path, dev_docs: Sequence) -> BoundaryChoice:
    """Score the pipeline at `model` on `dev_docs` (gold treebank docs) with its own
    boundaries and with the rule before the parser; when the rule scores higher, the
    pipeline at `model` is saved again with it first."""
    import spacy

    nlp = spacy.load(model)
    parser_f = _sentence_f(nlp, dev_docs)
    nlp.add_pipe(RULE, first=True)
    rule_f = _sentence_f(nlp, dev_docs)
    if rule_f > parser_f:
        nlp.to_disk(model)
        return BoundaryChoice("sentencizer", parser_f, rule_f)
    return BoundaryChoice("parser", parser_f, rule_f)


def _sentence_f(nlp: Any, docs: Sequence) -> float:
    """spaCy's sentence-boundary F of `nlp` on the gold docs' text."""
    from spacy.training import Example

    examples = [Example(nlp.make_doc(doc.text), doc) for doc in in_vocab(docs, nlp.vocab)]
    return round(float(nlp.evaluate(examples).get("sents_f") or 0.0), 4)
