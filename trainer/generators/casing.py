"""Giving lower-cased model output the input's casing back.

The models read and write lower-cased tokens; the casing is restored from the source: a word
found in the input takes its surface form there (its form inside the sentence when it has one;
a sentence-initial form is kept only for proper nouns and acronyms), other words stay lower
case, and the first word is capitalised when the input's first word is."""

from __future__ import annotations

from collections.abc import Sequence

from parawire.trainer.generators.api import Source


def surface_forms(source: Source) -> dict[str, str]:
    """Lower-cased token → the form to write it in, from the source's tokens."""
    forms: dict[str, str] = {}
    for position, token in enumerate(source.tokens):
        key = token.casefold()
        if position > 0 or key in source.proper_nouns or (len(token) > 1 and token.isupper()):
            forms.setdefault(key, token)
    return forms


def restore_case(tokens: Sequence[str], source: Source) -> tuple[str, ...]:
    """The tokens in the source's casing (see the module's docstring)."""
    forms = surface_forms(source)
    cased = [forms.get(token, token) for token in tokens]
    if cased and source.tokens and source.tokens[0][:1].isupper():
        cased[0] = cased[0][:1].upper() + cased[0][1:]
    return tuple(cased)
