"""Proper-noun units from a parse without named entities (pipelines trained from treebanks).

A unit starts at a PROPN token and grows along the parse: the next PROPN joins when it
depends on the unit, any token joins when a name relation (flat, flat:name, compound,
fixed) ties it to the unit ("Van der Bellen" with "der" tagged ADP), and one or two
lower-case function words join with the PROPN after them when that name depends on the unit
("Banca d'Italia", "Banco de España"). Adjacent names that the parse keeps apart stay apart
("della Banca d'Italia Mario Draghi": two units). Leading titles ("presidente",
"dhr.") are dropped and a unit made of calendar words only ("Lunedì", "Mayo") is none,
with the lists of nlp/languages/<lang>.toml.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from parawire.nlp.resources import LanguageResources

_NAME_RELATIONS = frozenset({"flat", "flat:name", "flat:foreign", "compound", "fixed"})
_CONNECTOR_POS = frozenset({"ADP", "DET"})
MAX_CONNECTORS = 2


def _joins(token: Any, run: list[Any]) -> bool:
    """Whether the token next to a run continues its name: a PROPN that depends on the run,
    or any token tied to it by a name relation (either way)."""
    indices = {t.i for t in run}
    if token.head.i in indices and (token.pos_ == "PROPN" or token.dep_ in _NAME_RELATIONS):
        return True
    return any(t.head.i == token.i and t.dep_ in _NAME_RELATIONS for t in run)


def _bridge(sent: Any, start: int, run: list[Any]) -> int:
    """How many connector tokens from `start` (a sentence-relative index) lead to a PROPN
    that depends on the run (0: none)."""
    indices = {t.i for t in run}
    for n in range(1, MAX_CONNECTORS + 1):
        if start + n >= len(sent):
            return 0
        connector = sent[start + n - 1]
        if connector.pos_ not in _CONNECTOR_POS or not connector.text[:1].islower():
            return 0
        after = sent[start + n]
        if after.pos_ == "PROPN" and after.head.i in indices:
            return n
    return 0


def name_runs(sent: Any, covered: set[int]) -> Iterator[list[Any]]:
    """Token runs of the names in a sentence span (or its list of tokens), skipping tokens
    in `covered` (those of named entities already counted)."""
    k = 0
    while k < len(sent):
        token = sent[k]
        if token.pos_ != "PROPN" or token.i in covered:
            k += 1
            continue
        run = [token]
        k += 1
        while k < len(sent) and sent[k].i not in covered:
            if _joins(sent[k], run):
                run.append(sent[k])
                k += 1
                continue
            bridge = _bridge(sent, k, run)
            if not bridge:
                break
            run.extend(sent[k:k + bridge + 1])
            k += bridge + 1
        yield run


def trim_titles(run: list[Any], resources: LanguageResources) -> list[Any]:
    """The run without leading titles and calendar-only content (empty when nothing is
    left of a name)."""
    while run and _folded(run[0]) in resources.titles:
        run = run[1:]
    if all(_folded(t) in resources.calendar_words for t in run if t.pos_ == "PROPN"):
        return []
    return run


def _folded(token: Any) -> str:
    return token.text.casefold()
