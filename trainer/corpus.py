"""Reading an exported corpus and building the generators' vocabulary from it."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from parawire.config import TrainingConfig
from parawire.errors import ParawireError

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<s>", "</s>"
SPECIALS = (PAD, UNK, BOS, EOS)
PAD_ID, UNK_ID, BOS_ID, EOS_ID = range(len(SPECIALS))
_TRAIN = TrainingConfig()
_SPACE_BEFORE = re.compile(r" ([.,;:!?)'’]|n't|'s)(?= |$)")
_SPACE_AFTER = re.compile(r"([(]) ")


@dataclass(frozen=True, slots=True)
class TokenPair:
    """One training example: input and target as lower-cased tokens."""

    source: tuple[str, ...]
    target: tuple[str, ...]


def split_words(text: str) -> tuple[str, ...]:
    """Whitespace tokens with leading and trailing punctuation split off, casing kept."""
    out: list[str] = []
    for word in text.split():
        head = word.rstrip(".,;:!?\"')")
        lead = head.lstrip("\"'(")
        out.extend(head[: len(head) - len(lead)])
        if lead:
            out.append(lead)
        out.extend(word[len(head):])
    return tuple(out)


def tokenize(text: str) -> tuple[str, ...]:
    """Whitespace tokens with punctuation split off, lower-cased."""
    return tuple(token.casefold() for token in split_words(text))


def detokenize(tokens: Sequence[str]) -> str:
    """Tokens as text: no space before closing punctuation or after an opening bracket."""
    return _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", " ".join(tokens)))


def read_records(path: Path) -> list[tuple[str, str]]:
    """(input, target) texts of a JSONL export; a bad line names its number."""
    records: list[tuple[str, str]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                records.append((record["input"], record["target"]))
            except (json.JSONDecodeError, KeyError, TypeError):
                raise ParawireError(f"{path}:{number}: not a parawire pair record") from None
    return records


def read_pairs(path: Path, max_len: int = _TRAIN.max_len) -> list[TokenPair]:
    """Pairs of a JSONL export, truncated to max_len tokens; a bad line names its number."""
    return [TokenPair(tokenize(source)[:max_len], tokenize(target)[:max_len])
            for source, target in read_records(path)]


class Vocabulary:
    """Token ↔ id maps with the special tokens first."""

    def __init__(self, tokens: Iterable[str]) -> None:
        self.itos: list[str] = [*SPECIALS, *(t for t in tokens if t not in SPECIALS)]
        self.stoi = {token: index for index, token in enumerate(self.itos)}

    @classmethod
    def build(cls, pairs: Iterable[TokenPair], size: int = _TRAIN.vocab_size) -> Vocabulary:
        """The `size` most frequent tokens of the (training) pairs, ties broken by token."""
        counts: Counter[str] = Counter()
        for pair in pairs:
            counts.update(pair.source)
            counts.update(pair.target)
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        return cls(token for token, _ in ranked[: max(0, size - len(SPECIALS))])

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, tokens: Iterable[str]) -> list[int]:
        """Ids of tokens, UNK for those outside the vocabulary."""
        unk = self.stoi[UNK]
        return [self.stoi.get(token, unk) for token in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        """Tokens of ids."""
        return [self.itos[i] for i in ids]


def split_path(corpus: Path, split: str) -> Path:
    """The file of one split (train, valid or test) of an exported JSONL corpus folder."""
    path = corpus / f"{split}.jsonl"
    if not path.is_file():
        raise ParawireError(f"{corpus} has no {split}.jsonl: expected a folder written by "
                            "`parawire export --format jsonl`")
    return path


def read_split(corpus: Path, split: str, max_len: int = _TRAIN.max_len) -> list[TokenPair]:
    """One split (train, valid or test) of an exported JSONL corpus folder."""
    return read_pairs(split_path(corpus, split), max_len)


def autoencoder_pairs(pairs: Iterable[TokenPair]) -> list[TokenPair]:
    """Each distinct sentence of the pairs as its own target, in first-seen order."""
    seen: dict[tuple[str, ...], None] = {}
    for pair in pairs:
        seen.setdefault(pair.source)
        seen.setdefault(pair.target)
    return [TokenPair(sentence, sentence) for sentence in seen if sentence]
