"""Page text from a response whose declared encoding may be wrong or missing."""

from __future__ import annotations

from charset_normalizer import from_bytes
from scrapy.http import TextResponse

REPLACEMENT = "\ufffd"


def page_text(response: TextResponse) -> tuple[str, bool]:
    """The page's text and whether its encoding had to be guessed from the bytes.

    Scrapy decodes by the HTTP header, a BOM or <meta charset>; when that leaves
    undecodable bytes, the body is tried as UTF-8 and then as charset-normalizer's guess.
    """
    text = response.text
    if REPLACEMENT not in text:
        return text, False
    body = response.body
    try:
        return body.decode("utf-8"), True
    except UnicodeDecodeError:
        pass
    guess = from_bytes(body[:200_000]).best()
    if guess is None or guess.encoding is None:
        return text, False
    return body.decode(guess.encoding, errors="replace"), True
