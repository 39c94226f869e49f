"""The body text of an article: lines keyed for per-outlet counting, the headline and the
outlet's boilerplate lines removed, and the signs that an extractor returned no article."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable

from rapidfuzz import fuzz

from parawire.crawler.page_meta import PageMeta
from parawire.textnorm import fold_typography

# A body line this close (rapidfuzz ratio) to the headline repeats it.
HEADLINE_LIKE = 90
# Lines at the top of the body that may repeat the headline (a kicker may come first).
HEADLINE_LINES = 3
# Never strip outlet lines that make up more than this share of a text: that page is a
# copy or an update of one seen before (dedup's business), not boilerplate.
MAX_BOILERPLATE_SHARE = 0.5
# Suspicious extractions (fall back to the full extractor): shares of the text's characters.
LINK_SHARE = 0.5
REPEATED_SHARE = 0.5
# A text shorter than this share of the page's paragraph text is too short for the page.
SHORT_SHARE = 0.2
SENTENCE_KEY, OTHER_KEY = "s", "o"
# A sentence's last character (closing quotes in every typography: stored text keeps them).
_SENTENCE = re.compile(r"[.!?。！？…\"')»”’“‘„‟‚‛″′]\s*$")
_WORDS = re.compile(r"\w+")


def line_key(line: str) -> str:
    """A short key for a line, equal for lines that differ only in case and punctuation;
    it starts with SENTENCE_KEY for a sentence-like line (prose needs more evidence than
    menu items and prompts before it counts as boilerplate), else with OTHER_KEY."""
    digest = hashlib.blake2b(" ".join(_WORDS.findall(line.casefold())).encode("utf-8"),
                             digest_size=8).hexdigest()
    return (SENTENCE_KEY if _sentence_like(line) else OTHER_KEY) + digest


def without_headline(lines: list[str], headlines: Iterable[str]) -> list[str]:
    """The lines without those near the top that repeat a headline (fuzzy: typography,
    case, a trailing site name or a word changed)."""
    keys = [fold_typography(h).casefold() for h in headlines if h]
    kept = list(lines)
    for line in lines[:HEADLINE_LINES]:
        text = fold_typography(line).casefold()
        if any(fuzz.ratio(text, key) >= HEADLINE_LIKE
               or (len(key) >= 20 and text.startswith(key) and len(text) <= len(key) + 40)
               for key in keys):
            kept.remove(line)
    return kept


def without_boilerplate(lines: list[str], boilerplate: Collection[str]) -> list[str]:
    """The lines not known as the outlet's boilerplate, unless those are most of the text.
    Blank lines stay (they share their key with lines of no words, such as "***")."""
    kept = [line for line in lines if not line.strip() or line_key(line) not in boilerplate]
    total = sum(map(len, lines))
    if total and 1 - sum(map(len, kept)) / total > MAX_BOILERPLATE_SHARE:
        return lines
    return kept


def _sentence_like(line: str) -> bool:
    long_enough = len(line.split()) >= 8 or (len(line) >= 40 and " " not in line[:40])
    return long_enough and bool(_SENTENCE.search(line))


def suspicion(lines: list[str], meta: PageMeta, boilerplate: Collection[str]) -> str | None:
    """Why an extracted body looks like no article (None when it looks like one): too short
    for the page's paragraphs, mostly link texts, mostly the outlet's repeated lines, or not
    one sentence-like paragraph."""
    total = sum(map(len, lines))
    if not total:
        return "empty"
    if total < SHORT_SHARE * meta.paragraph_chars:
        return "too_short"
    linked = sum(len(line) for line in lines if line.removeprefix("- ") in meta.link_texts)
    if linked > LINK_SHARE * total:
        return "link_dense"
    if sum(len(line) for line in lines if line_key(line) in boilerplate) > REPEATED_SHARE * total:
        return "repeated"
    if not any(map(_sentence_like, lines)):
        return "no_sentences"
    return None
