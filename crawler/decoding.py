"""Page text from a response whose declared encoding may be wrong or missing."""

from __future__ import annotations

import codecs

from charset_normalizer import from_bytes
from scrapy.http import TextResponse
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom

REPLACEMENT = "\ufffd"
WESTERN = "cp1252"


def declared_encoding(response: TextResponse) -> str | None:
    """The encoding the HTTP header, a byte-order mark or <meta charset> declares."""
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
    return (http_content_type_encoding(content_type) or read_bom(response.body)[0]
            or html_body_declared_encoding(response.body))


def mostly_utf8(body: bytes, decoded: str) -> bool:
    """Whether `decoded` (the body decoded as UTF-8, bad bytes replaced) is a UTF-8 page: no
    bad byte, or more valid multi-byte characters than bad bytes (text in a single-byte
    encoding has almost no valid multi-byte sequence; a UTF-8 page with a stray byte has
    many)."""
    bad = decoded.count(REPLACEMENT) - body.count(REPLACEMENT.encode())
    if bad == 0:
        return True
    multibyte = sum(1 for char in decoded if char > "\x7f") - decoded.count(REPLACEMENT)
    return multibyte > bad


def page_text(response: TextResponse) -> tuple[str, bool]:
    """The page's text and whether a wrong declared encoding had to be replaced.

    A page decoded cleanly by its declared encoding is taken as is. One whose encoding is
    undeclared, or whose declared one leaves undecodable bytes, is tried as UTF-8 (a page
    that is mostly UTF-8 keeps it, each stray byte replaced where it stands), then as
    windows-1252 (the web's usual unlabelled encoding) when charset-normalizer finds it
    plausible, then as charset-normalizer's best guess.
    """
    declared = declared_encoding(response)
    text = response.text
    if declared and REPLACEMENT not in text:
        return text, False
    body = response.body
    utf8 = body.decode("utf-8", errors="replace")
    if mostly_utf8(body, utf8):
        return utf8, declared is not None and codecs.lookup(declared).name != "utf-8"
    plausible = [match.encoding for match in from_bytes(body[:200_000])]
    if not plausible:
        return text, False
    chosen = WESTERN if WESTERN in plausible else plausible[0]
    return body.decode(chosen, errors="replace"), declared is not None
