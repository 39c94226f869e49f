"""Round-trip translation with Apertium (rule-based, offline: the Debian `apertium` binary and
a language pair such as `apertium-eng-spa`). A noisy source: its candidates say so in their
origin ("apertium:eng-spa-noisy"), and the prune steps or rank filters decide what survives.

One `apertium` process per direction and batch: the batch's sentences go in one per line
(plain-text format, so that sentence-final stops survive) and come back one per line; a
batch whose line count changes on the way is retried sentence by sentence."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence

from parawire.errors import ParawireError
from parawire.trainer.corpus import split_words
from parawire.trainer.generators.api import Candidate, Source

# Apertium marks words it could not analyse (*), transfer (@) or generate (#).
_MARKS = re.compile(r"(?<!\S)[*@#](?=\S)")


def available_modes(binary: str = "apertium") -> set[str]:
    """The translation directions Apertium lists here (`apertium -l`); a one-line error when
    the binary is missing."""
    path = shutil.which(binary)
    if path is None:
        raise ParawireError(f"no {binary} binary on PATH: install Debian's apertium and a pair "
                            "(apt-get install apertium apertium-eng-spa)")
    listed = subprocess.run([path, "-l"], capture_output=True, text=True, check=False)
    return set(listed.stdout.split())


def reversed_mode(mode: str) -> str:
    """The opposite direction of a pair's mode: eng-spa → spa-eng."""
    there, _, back = mode.partition("-")
    return f"{back}-{there}"


class Apertium:
    """Batch translation through the `apertium` command, one process per call."""

    def __init__(self, binary: str = "apertium", timeout: float = 600.0) -> None:
        self.binary = binary
        self.timeout = timeout

    def _run(self, text: str, mode: str) -> str:
        done = subprocess.run([self.binary, "-u", mode], input=text, capture_output=True,
                              text=True, timeout=self.timeout, check=False)
        if done.returncode:
            raise ParawireError(f"apertium {mode} failed: {done.stderr.strip().splitlines()[-1:]}")
        return done.stdout

    def translate(self, lines: Sequence[str], mode: str) -> list[str]:
        """Each line translated in direction `mode` (newlines inside a line become spaces)."""
        if not lines:
            return []
        flat = [" ".join(line.split()) for line in lines]
        out = self._run("\n".join(flat) + "\n", mode).split("\n")
        out = out[:-1] if out and out[-1] == "" else out
        if len(out) != len(flat):  # a line split or joined on the way: one call each
            out = [self._run(line + "\n", mode).strip() for line in flat]
        return [_MARKS.sub("", line).strip() for line in out]


class ApertiumRoundTrip:
    """At most one candidate per source: the input translated through the pair configured for
    its language and back (a language without a pair gives none; Apertium is deterministic, so
    the seed is unused). A whole batch goes through two apertium calls."""

    name = "apertium"

    def __init__(self, engine: Apertium, pairs: Mapping[str, str]) -> None:
        self.engine = engine
        self.pairs = dict(pairs)  # source language → forward mode (e.g. en → eng-spa)

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        """The round trip of one source (see generate_batch)."""
        return self.generate_batch([source], n, seed)[0]

    def generate_batch(self, sources: Sequence[Source], n: int, seed: int) -> list[list[Candidate]]:
        """Every source's round trip, one apertium call per direction and language."""
        out: list[list[Candidate]] = [[] for _ in sources]
        if n < 1:
            return out
        for language, mode in self.pairs.items():
            indices = [i for i, s in enumerate(sources) if s.language == language]
            if not indices:
                continue
            there = self.engine.translate([sources[i].text for i in indices], mode)
            back = self.engine.translate(there, reversed_mode(mode))
            for index, text in zip(indices, back, strict=True):
                tokens = split_words(text)
                if tokens:
                    out[index] = [Candidate(text, tokens, f"{self.name}:{mode}-noisy")]
        return out


def load_apertium(pairs: Mapping[str, str], binary: str = "apertium") -> ApertiumRoundTrip:
    """The round-trip source over the configured pairs whose both directions are installed; a
    one-line error naming what is missing when none is."""
    modes = available_modes(binary)
    usable = {lang: mode for lang, mode in pairs.items()
              if mode in modes and reversed_mode(mode) in modes}
    if not usable:
        wanted = ", ".join(f"{m} and {reversed_mode(m)}" for m in pairs.values()) or "none configured"
        raise ParawireError(f"no Apertium pair installed for the round trip ({wanted}; installed: "
                            f"{', '.join(sorted(modes)) or 'none'}): apt-get install apertium-eng-spa")
    return ApertiumRoundTrip(Apertium(binary), usable)
