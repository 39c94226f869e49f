"""What `parawire paraphrase` and `evaluate-generators` wire together: sentences annotated by
the nlp room into the trainer's sources, the aligner's sentence embeddings as a judge."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from parawire.config import Settings
from parawire.records import Article
from parawire.trainer import Generator, Judges, Models, Source, build_generator


def sources_of(settings: Settings, texts: Sequence[str], annotate: bool,
               language: str = "en") -> list[Source]:
    """Each text as a source; with annotate, its names come from the configured annotator
    (otherwise capitalised words after the first count as names)."""
    if not annotate:
        return [Source.from_text(text, language) for text in texts]
    from parawire.nlp import annotator_for

    articles = [Article(url=f"input:{i}", source="input", language=language, title="", text=text,
                        published=None, id=i) for i, text in enumerate(texts)]
    annotated = annotator_for(settings, language).annotate(articles)
    return [Source.from_sentences(article.text, sentences, language)
            for article, sentences in annotated]


def generators_of(settings: Settings, names: Sequence[str], checkpoint: Path,
                  backward: Path | None, device: str | None) -> tuple[list[Generator], Models]:
    """The named generators over the checkpoints (one copy of each model shared by all)."""
    from parawire.aligner import cosine_similarities

    models = Models.load(checkpoint, backward, device or settings.train.device,
                         settings.generate.threads)
    models.similarity = cosine_similarities
    return [build_generator(name, models, settings) for name in names], models


def judges_of(models: Models) -> Judges:
    """Fidelity judges: USE cosine (the aligner's semantic check) and the backward model."""
    from parawire.aligner import cosine_similarities

    return Judges(similarity=cosine_similarities, backward=models.backward)
