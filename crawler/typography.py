"""Whitespace of titles and body text: no-break and odd spaces become spaces, invisible
zero-width characters and soft hyphens go, runs of spaces become one. Every visible
character stays the publisher's (quotes, apostrophes, dashes, guillemets, ellipses): text is
folded only where it is compared (parawire.textnorm.fold_typography)."""

from __future__ import annotations

import re

_TABLE = str.maketrans({
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                    "\u200a\u202f\u205f\u3000", " "),
    **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", None),
})
_SPACES = re.compile(r"[ \t\r\f\v]+")


def normalise(text: str) -> str:
    """One line of text with single plain spaces and no invisible characters."""
    return " ".join(text.translate(_TABLE).split())


def normalise_lines(text: str) -> list[str]:
    """The non-empty lines of a text, each with single plain spaces and no invisible
    characters."""
    return [line for raw in text.translate(_TABLE).splitlines()
            if (line := _SPACES.sub(" ", raw).strip())]
