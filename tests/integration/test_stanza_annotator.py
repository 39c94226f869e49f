"""The Stanza backend's conversion, on Stanza Documents read from CoNLL-U.

Stanza models cannot be downloaded here, so the parses are written by hand: the words are
real MEANTIME sentences read from ../shared/data at test time, and the columns below
(UPOS, XPOS, head, relation, lemma where it differs from the form, NER as Stanza writes it
in MISC) are their Universal Dependencies analysis, as Stanza's models produce it."""

from __future__ import annotations

import json
import re
from datetime import date

import pytest

from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.records import Article

stanza_conll = pytest.importorskip("stanza.utils.conll")

from parawire.nlp import annotator_for  # noqa: E402
from parawire.nlp.features import article_sentences  # noqa: E402
from parawire.nlp.stanza_annotator import StanzaAnnotator, spacy_doc, stanza_vocab  # noqa: E402

# "That contract was fought for between Boeing and Lockheed Martin, Lockheed ultimately
# winning the contest."  (MEANTIME en, first article, sentence 3)
CONTRACT = [
    "DET DT 2 det", "NOUN NN 4 nsubj:pass", "AUX VBD 4 aux:pass lemma=be",
    "VERB VBN 0 root lemma=fight", "ADP IN 4 compound:prt", "ADP IN 7 case",
    "PROPN NNP 4 obl ner=S-ORG", "CCONJ CC 9 cc", "PROPN NNP 7 conj ner=B-ORG",
    "PROPN NNP 9 flat ner=E-ORG", "PUNCT , 14 punct", "PROPN NNP 14 nsubj ner=S-ORG",
    "ADV RB 14 advmod", "VERB VBG 4 advcl lemma=win", "DET DT 16 det", "NOUN NN 14 obj",
    "PUNCT . 4 punct",
]
# "It is the biggest contract of its kind since the Joint Strike Fighter program."  (sentence 2)
BIGGEST = [
    "PRON PRP 5 nsubj", "AUX VBZ 5 cop lemma=be", "DET DT 5 det", "ADJ JJS 5 amod lemma=big",
    "NOUN NN 0 root", "ADP IN 8 case", "PRON PRP$ 8 nmod:poss", "NOUN NN 5 nmod",
    "ADP IN 14 case", "DET DT 14 det", "PROPN NNP 13 compound ner=B-PRODUCT",
    "PROPN NNP 13 compound ner=I-PRODUCT", "PROPN NNP 14 compound ner=E-PRODUCT",
    "NOUN NN 5 nmod", "PUNCT . 5 punct",
]
# "El senador McCain ha sido el detractor más abierto del acuerdo."  (MEANTIME es): "del" is
# a multi-word token, the words "de" + "el".
DETRACTOR = [
    "DET da0ms0 2 det", "NOUN ncms000 7 nsubj", "PROPN np00000 2 appos ner=S-PER",
    "AUX vaip3s0 7 aux lemma=haber", "AUX vsp00sm 7 cop lemma=ser", "DET da0ms0 7 det",
    "NOUN ncms000 0 root", "ADV rg 9 advmod", "ADJ aq0msp 7 amod",
    ["ADP sp000 12 case form=de", "DET da0ms0 12 det form=el"], "NOUN ncms000 7 nmod",
    "PUNCT fp 7 punct",
]


def _conllu(text: str, rows: list) -> str:
    """One CoNLL-U sentence: the text's tokens (words and punctuation, in order) with the
    rows' annotation; a list row makes its token a multi-word token."""
    tokens = list(re.finditer(r"\w+|[^\w\s]", text))
    assert len(tokens) == len(rows), [m.group() for m in tokens]
    lines, word_id = [f"# text = {text}"], 0
    for match, row in zip(tokens, rows, strict=True):
        space = "" if match.end() < len(text) and not text[match.end()].isspace() else None
        misc_space = "SpaceAfter=No" if space == "" else ""
        words = row if isinstance(row, list) else [row]
        if len(words) > 1:
            token_misc = "|".join(filter(None, ["ner=O", misc_space]))
            lines.append(f"{word_id + 1}-{word_id + len(words)}\t{match.group()}\t_\t_\t_\t_\t_\t_\t_\t"
                         f"{token_misc}")
        for spec in words:
            word_id += 1
            upos, xpos, head, deprel, *extra = spec.split()
            fields = dict(item.split("=", 1) for item in extra)
            form = fields.get("form", match.group())
            lemma = fields.get("lemma", form if upos == "PROPN" else form.lower())
            misc = "_" if len(words) > 1 else "|".join(
                filter(None, [f"ner={fields.get('ner', 'O')}", misc_space]))
            lines.append(f"{word_id}\t{form}\t{lemma}\t{upos}\t{xpos}\t_\t{head}\t{deprel}\t_\t{misc}")
    return "\n".join(lines) + "\n\n"


def _document(texts_and_rows: list[tuple[str, list]]):
    conllu = "".join(_conllu(text, rows) for text, rows in texts_and_rows)
    return stanza_conll.CoNLL.conll2doc(input_str=conllu, reconstruct_text=True)


def _sentences(shared_data, language: str) -> list[str]:
    with (shared_data / "meantime" / f"{language}.jsonl").open() as lines:
        return [s for line in lines for s in json.loads(line)["sentences"]]


def _article(language: str) -> Article:
    return Article(id=3, url="http://t/3", source="wikinews", language=language, title="t",
                   text="", published=date(2008, 3, 1), topic="airbus")


@pytest.fixture(scope="module")
def english(shared_data):
    sentences = _sentences(shared_data, "en")
    document = _document([(sentences[2], BIGGEST), (sentences[3], CONTRACT)])
    return article_sentences(_article("en"), [spacy_doc(document, stanza_vocab("en"))])


def test_sentences_tokens_lemmas_and_pos_come_from_the_stanza_words(english, shared_data):
    biggest, contract = english
    assert [s.position for s in english] == [0, 1]
    assert contract.text == _sentences(shared_data, "en")[3]
    assert contract.tokens[:5] == ["That", "contract", "was", "fought", "for"]
    assert contract.lemmas[2:4] == ["be", "fight"] and contract.lemmas[13] == "win"
    assert contract.pos[:4] == ["DET", "NOUN", "AUX", "VERB"]
    assert len(biggest.tokens) == len(biggest.lemmas) == len(biggest.pos) == 15


def test_entities_names_and_nouns(english):
    biggest, contract = english
    assert contract.entities == [("Boeing", "ORG"), ("Lockheed Martin", "ORG"), ("Lockheed", "ORG")]
    assert contract.proper_nouns == ["boeing", "lockheed", "lockheed martin"]  # the name is one unit
    assert contract.common_nouns == ["contest", "contract"]
    assert biggest.proper_nouns == ["joint strike fighter"]
    assert biggest.common_nouns == ["contract", "kind", "program"]


def test_collocations_from_universal_dependencies_noun_phrases(english):
    biggest, contract = english
    assert {c.lemma for c in biggest.collocations} == {
        "the big contract", "its kind", "the joint strike fighter program", "joint strike fighter"}
    chunk = next(c for c in biggest.collocations if c.lemma == "the joint strike fighter program")
    assert (chunk.text, chunk.pos) == ("the Joint Strike Fighter program", "DET PROPN PROPN PROPN NOUN")
    assert {c.lemma for c in contract.collocations} == {"that contract", "lockheed martin", "the contest"}


def test_multi_word_tokens_keep_the_sentence_text(shared_data):
    text = next(s for s in _sentences(shared_data, "es") if s.startswith("El senador McCain"))
    document = _document([(text, DETRACTOR)])
    (sentence,) = article_sentences(_article("es"), [spacy_doc(document, stanza_vocab("es"))])
    assert sentence.text == text  # "del", not "de el"
    assert sentence.tokens[9:11] == ["de", "el"] and sentence.pos[9:11] == ["ADP", "DET"]
    assert sentence.entities == [("McCain", "PER")]
    assert sentence.proper_nouns == ["mccain"]
    assert {"senador", "detractor"} <= set(sentence.common_nouns)
    assert {"el senador", "el detractor", "el acuerdo"} <= {c.lemma for c in sentence.collocations}


def test_missing_stanza_models_name_the_download(tmp_path):
    settings = load_settings(nlp={"backends": {"it": "stanza"}, "stanza_dir": str(tmp_path)})
    with pytest.raises(ParawireError, match=r"stanza.download\('it'.*nlp.backends.it"):
        annotator_for(settings, "it")


def test_the_annotator_runs_a_real_stanza_pipeline_over_articles(shared_data, tmp_path):
    """Stanza's tokenizer needs no model for pre-tokenized text (MEANTIME's is), so a real
    pipeline runs here: articles in, sentences out, unparsed words tagged X."""
    import stanza

    (tmp_path / "resources.json").write_text("{}")
    pipeline = stanza.Pipeline("en", dir=str(tmp_path), processors="tokenize",
                               tokenize_pretokenized=True, download_method=None,
                               allow_unknown_language=True, logging_level="ERROR")
    annotator = StanzaAnnotator(pipeline, "en", batch_size=2)
    sentences = _sentences(shared_data, "en")
    articles = [Article(id=k, url=f"http://t/{k}", source="wikinews", language="en", title="",
                        text=text, published=None) for k, text in (
                            (1, "\n".join(["By Staff Reporter", *sentences[1:4]])),
                            (2, ""), (3, sentences[5]))]
    done = list(annotator.annotate(articles))
    assert [article.id for article, _ in done] == [1, 2, 3]
    first, empty, third = (s for _, s in done)
    assert [s.text for s in first] == sentences[1:4] and empty == []
    assert [s.text for s in third] == [sentences[5]]
    assert first[1].tokens == sentences[2].split() and set(first[1].pos) == {"X"}
    assert [s.position for s in first] == [0, 1, 2]
