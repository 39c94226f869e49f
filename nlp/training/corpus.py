"""CoNLL-U treebanks as spaCy training corpora (DocBin files), by spaCy's own converter."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from parawire.errors import ParawireError


def read_conllu_docs(paths: Iterable[Path], sentences_per_doc: int) -> list:
    """Docs of the treebank files, `sentences_per_doc` sentences each (the parser learns
    sentence boundaries from them). Multi-word tokens ("del" = "di" + "il") are merged into
    the surface token the tokenizer sees, so that training text is the text annotated later."""
    from spacy.training.converters import conllu_to_docs

    docs = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ParawireError(f"cannot read treebank {path}: {exc.strerror}") from None
        try:
            found = list(conllu_to_docs(text, n_sents=sentences_per_doc, merge_subtokens=True,
                                        no_print=True))
        except (ValueError, IndexError) as exc:
            raise ParawireError(f"{path} is not a CoNLL-U file: {exc}") from None
        if not found:
            raise ParawireError(f"{path} holds no sentences")
        docs.extend(found)
    return docs


def sentence_count(docs: Iterable) -> int:
    """Sentences in converted docs."""
    return sum(1 for doc in docs for _ in doc.sents)


def conllu_docbin(paths: Sequence[Path], out: Path, sentences_per_doc: int) -> int:
    """Write the treebanks' docs to one DocBin file; returns its number of sentences."""
    docs = read_conllu_docs(paths, sentences_per_doc)
    write_docbin(docs, out)
    return sentence_count(docs)


def write_docbin(docs: Sequence, out: Path) -> None:
    """Save docs as a DocBin file (its folder created)."""
    from spacy.tokens import DocBin

    out.parent.mkdir(parents=True, exist_ok=True)
    DocBin(docs=docs, store_user_data=False).to_disk(out)


def in_vocab(docs: Sequence, vocab: Any) -> list:
    """The docs again, with their strings in `vocab` (a pipeline's, to score them against)."""
    from spacy.tokens import DocBin

    return list(DocBin(docs=docs, store_user_data=False).get_docs(vocab))
