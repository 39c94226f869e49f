"""The default Annotator, on a spaCy pipeline."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Iterator

from nlp.features import collocations, common_nouns, proper_nouns
from parawire.errors import ParawireError
from parawire.records import Article, Sentence

MIN_WORDS = 4


def load_spacy_model(name: str, language: str):
    """Load an installed spaCy model, or fail with the package to install."""
    import spacy

    if importlib.util.find_spec(name) is None:
        raise ParawireError(
            f"spaCy model {name!r} for language {language!r} is not installed: "
            f"pip install {name.replace('_', '-')} (or set nlp.models.{language})"
        )
    return spacy.load(name)


class SpacyAnnotator:
    """Annotates one language's articles with a spaCy model."""

    def __init__(self, model_name: str, language: str, batch_size: int = 64) -> None:
        self.language = language
        self.batch_size = batch_size
        self.nlp = load_spacy_model(model_name, language)

    def annotate(self, articles: Iterable[Article]) -> Iterator[tuple[Article, list[Sentence]]]:
        """Sentences of each article, paragraph by paragraph so none crosses a break."""
        for article in articles:
            paragraphs = [p.strip() for p in article.text.split("\n") if p.strip()]
            sentences: list[Sentence] = []
            for doc in self.nlp.pipe(paragraphs, batch_size=self.batch_size):
                for sent in doc.sents:
                    sentence = self._sentence(article, len(sentences), sent)
                    if sentence is not None:
                        sentences.append(sentence)
            yield article, sentences

    def _sentence(self, article: Article, position: int, sent) -> Sentence | None:
        words = [t for t in sent if not (t.is_punct or t.is_space)]
        if len(words) < MIN_WORDS:
            return None
        tokens = [t for t in sent if not t.is_space]
        assert article.id is not None
        return Sentence(
            article_id=article.id,
            position=position,
            text=sent.text.strip(),
            tokens=[t.text for t in tokens],
            lemmas=[t.lemma_ for t in tokens],
            pos=[t.pos_ for t in tokens],
            entities=[(ent.text, ent.label_) for ent in sent.ents],
            proper_nouns=proper_nouns(sent),
            common_nouns=common_nouns(sent),
            collocations=collocations(sent),
            language=article.language,
            topic=article.topic,
            published=article.published,
            source=article.source,
        )
