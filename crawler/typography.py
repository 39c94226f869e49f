"""Typography normalisation of titles and body text: no-break and odd spaces become spaces,
zero-width characters and soft hyphens go, curly quotes become straight ones."""

from __future__ import annotations

import re

_TABLE = str.maketrans({
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                    "\u200a\u202f\u205f\u3000", " "),
    **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", None),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
})
_SPACES = re.compile(r"[ \t\r\f\v]+")


def normalise(text: str) -> str:
    """One line of text with normalised typography and single spaces."""
    return " ".join(text.translate(_TABLE).split())


def normalise_lines(text: str) -> list[str]:
    """The non-empty lines of a text, each with normalised typography and single spaces."""
    return [line for raw in text.translate(_TABLE).splitlines()
            if (line := _SPACES.sub(" ", raw).strip())]
