"""WordNet synonym substitution (English): a reader of the WordNet 3.0 database files as Debian's
`wordnet-base` installs them (/usr/share/wordnet: index.POS and data.POS), and a generator
that swaps content words of the input for synonyms of their most frequent sense.

nltk's reader is not used: it needs a `lexnames` file that the Debian package does not ship."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from parawire.errors import ParawireError
from parawire.trainer.corpus import detokenize
from parawire.trainer.generators.api import Candidate, OneByOne, Source
from parawire.trainer.generators.constraints import content_tokens

PARTS = ("noun", "verb", "adj", "adv")


@dataclass(frozen=True, slots=True)
class Entry:
    """One lemma's index line for one part of speech: its synset offsets (most frequent sense
    first) and how often its senses were tagged in the WordNet corpus."""

    part: str
    tagged: int
    offsets: tuple[int, ...]


def parse_index_line(line: str, part: str) -> tuple[str, Entry] | None:
    """(lemma, entry) of an index.POS line; None for the licence lines (which start with spaces)."""
    if line.startswith(" "):
        return None
    fields = line.split()
    pointers = int(fields[3])
    rest = fields[4 + pointers:]
    senses, tagged = int(rest[0]), int(rest[1])
    return fields[0], Entry(part, tagged, tuple(int(o) for o in rest[2:2 + senses]))


def parse_synset_words(line: str) -> list[str]:
    """The words of a data.POS line (underscores as spaces, adjective markers like "(a)" cut)."""
    fields = line.split()
    count = int(fields[3], 16)
    words = fields[4:4 + 2 * count:2]
    return [word.split("(")[0].replace("_", " ") for word in words]


class WordNet:
    """The WordNet database in a folder (index.noun, data.noun, ... as WordNet 3.0 writes them)."""

    def __init__(self, folder: Path) -> None:
        missing = [f"{kind}.{part}" for part in PARTS for kind in ("index", "data")
                   if not (folder / f"{kind}.{part}").is_file()]
        if missing:
            raise ParawireError(f"no WordNet database in {folder} (missing {', '.join(missing)}): "
                                "install Debian's wordnet-base or set generate.overgen.wordnet_dir")
        self.folder = folder
        self.index: dict[str, list[Entry]] = {}
        for part in PARTS:
            with (folder / f"index.{part}").open(encoding="utf-8") as handle:
                for line in handle:
                    parsed = parse_index_line(line, part)
                    if parsed:
                        self.index.setdefault(parsed[0], []).append(parsed[1])

    def synset(self, part: str, offset: int) -> list[str]:
        """The words of one synset (data files are addressed by byte offset)."""
        with (self.folder / f"data.{part}").open("rb") as handle:
            handle.seek(offset)
            return parse_synset_words(handle.readline().decode("utf-8"))

    def synonyms(self, word: str) -> list[str]:
        """Other words of the word's most frequent sense: the first synset of its part of speech
        with the most tagged senses (ties: noun, verb, adj, adv); [] when WordNet lacks it."""
        entries = self.index.get(word.casefold().replace(" ", "_"))
        if not entries:
            return []
        entry = max(entries, key=lambda e: (e.tagged, -PARTS.index(e.part)))
        words = self.synset(entry.part, entry.offsets[0])
        return [w for w in dict.fromkeys(words) if w.casefold() != word.casefold()]


@lru_cache(maxsize=2)
def wordnet_at(folder: str) -> WordNet:
    """The WordNet of a folder, read once per process."""
    return WordNet(Path(folder))


class SynonymGenerator(OneByOne):
    """Copies of the input with content words (never names or numbers; see content_tokens)
    swapped for WordNet synonyms: candidate i swaps a random choice of about `fraction` of the
    substitutable words (at least one), each for a random synonym; English only."""

    name = "wordnet"

    def __init__(self, wordnet: WordNet, fraction: float) -> None:
        self.wordnet = wordnet
        self.fraction = fraction

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """Up to n distinct substituted copies (none for a language other than English)."""
        if source.language != "en":
            return []
        options = {w: s for w in content_tokens(source) if (s := self.wordnet.synonyms(w))}
        if not options:
            return []
        rng = random.Random(seed)
        words = sorted(options)
        size = max(1, round(self.fraction * len(words)))
        seen: set[tuple[str, ...]] = set()
        out = []
        for _ in range(4 * n):
            swap = {w: rng.choice(options[w]) for w in rng.sample(words, size)}
            tokens = tuple(part for token in source.tokens
                           for part in (swap[token.casefold()].split() if token.casefold() in swap
                                        else [token]))
            if tokens not in seen:
                seen.add(tokens)
                out.append(Candidate(detokenize(tokens), tokens, self.name))
                if len(out) == n:
                    break
        return out
