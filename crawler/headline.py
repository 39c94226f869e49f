"""The headline of a page: its candidates (<h1>, JSON-LD headline, og:title, <title>) freed
of the site's name, then chosen by agreement rather than by a fixed order."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz import fuzz

from parawire.crawler.page_meta import PageMeta
from parawire.textnorm import fold_typography

# What sits between a headline and the site's name: "Story | Site", "Site - Story",
# "Story – DW – 13.06.2023", "Story：朝日新聞デジタル".
SEPARATOR = re.compile(r"\s+[|\-–—:·»•/]{1,2}\s+|\s*[｜：|]\s*")
_DATE_LIKE = re.compile(r"^[\d\s./-]+$")
_ALNUM = re.compile(r"[\W_]+")
# An <h1> agreeing this much (rapidfuzz token-set ratio) with another candidate is the
# visible headline of the same story.
H1_AGREEMENT = 70


def _key(text: str) -> str:
    return _ALNUM.sub("", text.casefold())


def _compared(text: str) -> str:
    """A candidate as candidates are compared: case and typography folded."""
    return fold_typography(text).casefold()


def is_site_name(part: str, names: Iterable[str]) -> bool:
    """Whether a title part names the site or is a date (equal to a name, part of one, a name
    with a little more, or nearly equal; ignoring case and punctuation: "DW" names "dw.com")."""
    if _DATE_LIKE.match(part):
        return True
    key = _key(part)
    for name in names:
        other = _key(name)
        # A part may add a little to the name ("Express.co.uk" of "Express"), not a story.
        if other and (key == other or (len(key) >= 2 and key in other)
                      or (other in key and len(key) <= 2 * len(other) + 4)
                      or fuzz.ratio(key, other) >= 85):
            return True
    return False


def strip_site(title: str, names: Iterable[str], affixes: Iterable[str] = ()) -> str:
    """The title without learned affixes (exact, ignoring case) and without leading or
    trailing parts that name the site or are dates."""
    names = list(names)
    for affix in affixes:
        if len(affix) < len(title):
            if title.casefold().endswith(affix.casefold()):
                title = title[:-len(affix)].strip()
            elif title.casefold().startswith(affix.casefold()):
                title = title[len(affix):].strip()
    parts = SEPARATOR.split(title)
    separators = SEPARATOR.findall(title)
    while len(parts) > 1 and is_site_name(parts[-1], names):
        parts.pop()
        separators.pop()
    while len(parts) > 1 and is_site_name(parts[0], names):
        parts.pop(0)
        separators.pop(0)
    return "".join(part + sep for part, sep in zip(parts, [*separators, ""], strict=True)).strip()


def _headlike(text: str) -> bool:
    return len(text.split()) >= 3 or len(text) >= 12


def choose_headline(meta: PageMeta, hints: Iterable[str] = (), affixes: Iterable[str] = (),
                    fallback: str = "") -> str:
    """The page's headline as the page writes it: the <h1> that agrees with another
    candidate (the visible headline), else the article's own <h1>, else the candidate the
    others agree with most (ties: JSON-LD headline, og:title, <title>), else `fallback`;
    site names are stripped first, and candidates are compared with their typography
    folded (an og:title's straight quotes agree with the <h1>'s curly ones)."""
    names = [*meta.site_names, *hints]
    others = [strip_site(text, names, affixes)
              for text in (meta.ld_headline, meta.og_title, meta.title) if text]
    others = [text for text in others if text and not is_site_name(text, names)]
    h1s = [text for text in meta.h1 if _headlike(text) and not is_site_name(text, names)]
    if h1s and others:
        score, _, best = max((max(fuzz.token_set_ratio(_compared(h1), _compared(o))
                               for o in others), -rank, h1) for rank, h1 in enumerate(h1s))
        if score >= H1_AGREEMENT:
            return best
    if meta.article_h1 and meta.article_h1[0] in h1s:
        return meta.article_h1[0]
    if h1s and not others:
        return h1s[0]
    if not others:
        return fallback
    agreement = [(sum(fuzz.ratio(_compared(a), _compared(b)) for b in others), -rank, a)
                 for rank, a in enumerate(others)]
    return max(agreement)[2]
