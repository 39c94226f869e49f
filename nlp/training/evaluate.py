"""Score a pipeline on a CoNLL-U test treebank: UPOS, lemmas, LAS, sentence boundaries."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from parawire.errors import ParawireError
from parawire.nlp.training.corpus import in_vocab, read_conllu_docs, sentence_count
from parawire.nlp.training.train import META_KEY


@dataclass(frozen=True)
class PipelineScores:
    """Accuracy of a pipeline on a test treebank (spaCy's scorer, on its own tokenization
    aligned to the treebank's, multi-word tokens merged as in training)."""

    test: str
    sentences: int
    tokens: float
    upos: float
    lemma: float
    uas: float
    las: float
    sentence_f: float

    def as_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def evaluate_pipeline(model: str | Path, test: Path, sentences_per_doc: int,
                      record: bool = True) -> PipelineScores:
    """Scores of the pipeline at `model` (a path or an installed package) on `test`; with
    `record`, a pipeline trained here keeps them in its meta.json for the export's datasheet."""
    import spacy
    from spacy.training import Example

    try:
        nlp = spacy.load(model)
    except OSError as exc:
        raise ParawireError(f"cannot load pipeline {model}: {exc}") from None
    docs = in_vocab(read_conllu_docs([test], sentences_per_doc), nlp.vocab)
    examples = [Example(nlp.make_doc(doc.text), doc) for doc in docs]
    scores = nlp.evaluate(examples)
    result = PipelineScores(
        test=str(test), sentences=sentence_count(docs), tokens=_score(scores, "token_acc"),
        upos=_score(scores, "pos_acc"), lemma=_score(scores, "lemma_acc"),
        uas=_score(scores, "dep_uas"), las=_score(scores, "dep_las"),
        sentence_f=_score(scores, "sents_f"),
    )
    meta = Path(model) / "meta.json"
    if record and meta.is_file():
        data = json.loads(meta.read_text(encoding="utf-8"))
        if META_KEY in data:
            data[META_KEY]["test"] = result.as_dict()
            meta.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return result


def _score(scores: dict, key: str) -> float:
    value = scores.get(key)
    return round(float(value), 4) if value is not None else 0.0
