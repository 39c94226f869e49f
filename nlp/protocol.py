"""The Annotator protocol: articles in, annotated sentences out."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from parawire.records import Article, Sentence


class Annotator(Protocol):
    """Splits articles into sentences and annotates each one."""

    language: str

    def annotate(self, articles: Iterable[Article]) -> Iterator[tuple[Article, list[Sentence]]]:
        """Each article with its annotated sentences, in input order."""
        ...
