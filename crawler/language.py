"""Offline language identification of extracted text (py3langid's bundled model)."""

from __future__ import annotations

import py3langid

# Enough text to identify a language reliably; longer texts only cost time.
SAMPLE_CHARS = 2000


def detect_language(text: str) -> str:
    """The ISO 639-1 code of the language a text is written in ("" for no text)."""
    sample = text[:SAMPLE_CHARS].strip()
    if not sample:
        return ""
    return str(py3langid.classify(sample)[0])


def same_language(detected: str, expected: str) -> bool:
    """Whether a detected code matches an outlet's language tag (en matches en-GB)."""
    return detected.casefold() == expected.casefold().replace("_", "-").split("-", 1)[0]
