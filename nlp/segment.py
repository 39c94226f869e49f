"""News text into the passages a parser segments: paragraphs without bylines, datelines or
list markers, so that no sentence starts with "PARIS (Reuters) -" or "By Jane Doe"."""

from __future__ import annotations

import re
from collections.abc import Iterator

from parawire.records import Article

# "By Jane Doe", "By JANE DOE and John Roe, Staff Writers", "Par Jean Dupont" on a line of
# its own: a few capitalised words after the byline word, no sentence punctuation.
_BYLINE = re.compile(
    r"^(?i:by|par|di|por|door|von)\s+"
    r"(?:[A-Z][\w.'’-]*(?:,|\s+(?:and|et|e|y|en|und))?\s*){1,8}(?:[|/·—–-]\s*[\w .'’-]*)?$"
)
# A dateline: a place in capitals (four letters at least, or followed by an agency in
# brackets), maybe ", Month day", an agency, a dash, then a capitalised word or a quote.
_PLACE = r"[A-Z][A-Z.'’]+(?:[ -][A-Z][A-Z.'’]+){0,3}"
_AGENCY = r"\([A-Z][\w.&' -]{0,30}\)"
_DATELINE = (
    rf"(?:(?=(?:[.'’ ]*[A-Z]){{4}}){_PLACE}(?:,\s*[A-Z][a-z]+\.?(?:\s+\d{{1,2}})?)?\s*(?:{_AGENCY})?"
    rf"|{_PLACE}(?:,\s*[A-Z][a-z]+\.?(?:\s+\d{{1,2}})?)?\s*{_AGENCY})"
    rf"\s*(?:--|[-–—])\s+(?=[A-Z\"“‘'])"
)
_DATELINE_START = re.compile(rf"^{_DATELINE}")
# The same dateline run on after a headline with no closing punctuation
# ("No injuries reported ALASKA - Shortly after ..."): the passage is cut there.
_DATELINE_INSIDE = re.compile(rf"(?<=[\w,])\s+{_DATELINE}")
_LIST_MARKER = re.compile(r"^\s*(?:[-–—•·*▪●■►]|\(?\d{1,2}[.)]|\(?[a-z][)])\s+")
_INLINE_BULLET = re.compile(r"\s+[•▪●■►]\s+")
# The longest passage given to a parser: longer ones (a page with no paragraph breaks) are
# cut at sentence ends. Far below spaCy's max_length (1,000,000 characters, which it refuses
# to go over) and its parser's memory (about 1 GB per 100,000 characters).
MAX_PASSAGE_CHARS = 50_000
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\s+")


def passages(text: str) -> list[str]:
    """The text's paragraphs, one list item each, with bylines dropped and datelines cut off;
    a passage longer than MAX_PASSAGE_CHARS comes in pieces."""
    return [piece for passage in _passages(text) for piece in _cut(passage)]


def parsed_texts(article: Article) -> list[str]:
    """What an annotator parses of an article, one Doc each: its title first (when it has
    one: `titled`), then its text's passages."""
    return ([article.title.strip()] if titled(article) else []) + passages(article.text)


def titled(article: Article) -> bool:
    """Whether the article has a title to annotate."""
    return bool(article.title.strip())


def over_long_passages(text: str) -> int:
    """How many of the text's passages are longer than MAX_PASSAGE_CHARS (and are cut)."""
    return sum(len(passage) > MAX_PASSAGE_CHARS for passage in _passages(text))


def _passages(text: str) -> Iterator[str]:
    for line in text.split("\n"):
        for item in _INLINE_BULLET.split(line):
            item = _LIST_MARKER.sub("", item).strip()
            if not item or _BYLINE.match(item):
                continue
            item = _DATELINE_START.sub("", item)
            yield from (part.strip() for part in _DATELINE_INSIDE.split(item) if part.strip())


def _cut(passage: str, limit: int = MAX_PASSAGE_CHARS) -> list[str]:
    """A passage in pieces of at most `limit` characters, each cut after the last sentence
    end in its second half, else at the last space, else at the limit."""
    pieces = []
    while len(passage) > limit:
        window = passage[:limit]
        ends = [m.end() for m in _SENTENCE_END.finditer(window, limit // 2)]
        cut = ends[-1] if ends else (window.rfind(" ") + 1 or limit)
        pieces.append(passage[:cut].strip())
        passage = passage[cut:].lstrip()
    pieces.append(passage)
    return pieces
