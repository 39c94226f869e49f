"""The candidate API every generator speaks: a Source in, scored Candidates out."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from parawire.records import Sentence
from parawire.trainer.corpus import split_words

_NUMBER = re.compile(r"\d")
# Entity labels (OntoNotes, as spaCy and Stanza give them) that are amounts or times, not names.
NOT_NAMES = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})


def is_number(token: str) -> bool:
    """A token with a digit in it (2008, 3.5, 1,200, 25th)."""
    return bool(_NUMBER.search(token))


@dataclass(frozen=True, slots=True)
class Source:
    """One input sentence: its text, surface tokens, language, and the lower-cased tokens of
    its proper nouns and numbers (which generators must keep)."""

    text: str
    tokens: tuple[str, ...]
    language: str = "en"
    proper_nouns: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()

    @property
    def model_tokens(self) -> tuple[str, ...]:
        """The tokens as the models read them (lower-cased)."""
        return tuple(token.casefold() for token in self.tokens)

    @classmethod
    def from_text(cls, text: str, language: str = "en",
                  proper_nouns: Iterable[str] | None = None) -> Source:
        """A source from raw text. Without annotated proper nouns, a capitalised word after the
        first token counts as one (a heuristic; the CLI passes the annotator's)."""
        tokens = split_words(text)
        if proper_nouns is None:
            names = {t.casefold() for t in tokens[1:] if t[:1].isupper()}
        else:  # only words that are tokens of the text (a lemma "dominick" of "Dominick's" is not)
            names = {part.casefold() for name in proper_nouns for part in split_words(name)}
            names &= {t.casefold() for t in tokens}
        numbers = {t.casefold() for t in tokens if is_number(t)}
        return cls(text, tokens, language, frozenset(names), frozenset(numbers))

    @classmethod
    def from_sentences(cls, text: str, sentences: Sequence[Sentence], language: str = "en") -> Source:
        """A source from text and the annotator's sentences of it: the words of its named
        entities (not dates, times or amounts) and of its proper nouns are the names kept."""
        names = [name for sentence in sentences for name, label in sentence.entities
                 if label not in NOT_NAMES and not any(map(is_number, name.split()))]
        names += [name for sentence in sentences for name in sentence.proper_nouns]
        return cls.from_text(text, language, names)


@dataclass(slots=True)
class Candidate:
    """One generated paraphrase: text, tokens, the generator (and decoding) that made it, and
    its scores by name (lower is better for NLL-like scores, as each scorer documents)."""

    text: str
    tokens: tuple[str, ...]
    origin: str
    scores: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class Generator(Protocol):
    """Anything that turns a source into up to n candidates, best first."""

    name: str

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n candidates for one source, deterministic under seed."""
        ...

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Candidates for each source, as generate would give them one by one."""
        ...


class Scorer(Protocol):
    """Scores candidates of one source, one number each (the scorer says which way is better)."""

    name: str

    def score(self, source: Source, candidates: Sequence[Candidate]) -> list[float]:
        """One score per candidate, in order."""
        ...


class OneByOne(ABC):
    """Base of generators with no faster batched form: generate_batch loops over generate."""

    name: str

    @abstractmethod
    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n candidates for one source, deterministic under seed."""

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Each source on its own with the same seed, so that a source's candidates do not
        depend on its neighbours in the batch."""
        return [self.generate(source, n, seed) for source in sources]
