"""Whether a sentence can be one side of a paraphrase pair at all (pure): the exact rules one
sentence breaks whatever its partner. The aligner drops a pair with such a side (its
filters), so the embed stage gives such a sentence no vector and the dense source never
searches from it or offers it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from parawire.records import Sentence

VERB_TAGS = frozenset({"VERB", "AUX"})
# A sentence ending in one of these stops mid-clause (a split before a quotation, a list).
OPEN_ENDINGS = (",", ";", ":", "—", "–")
CLOSING_QUOTES = "\"'”’»)] "


def fragment(sentence: Sentence) -> bool:
    """A piece of a sentence, not a claim: a full stop after no verb (where it has tags:
    "The Fox News host Tucker Carlson."; a headline has no full stop, and its title-case
    verbs are often tagged as names), or it stops on a comma, colon or dash ("As Roberts
    wrote at the conclusion of his opinion,")."""
    text = sentence.text.rstrip(CLOSING_QUOTES)
    verbless = bool(sentence.pos) and not VERB_TAGS & set(sentence.pos)
    return (verbless and text.endswith(".")) or text.endswith(OPEN_ENDINGS)


# Double quotation marks of every script's pairs ("…", “…”, „…“, «…», »…«): a sentence
# holding an odd number of them opens or closes a quotation that runs on in another sentence.
QUOTATION_MARKS = frozenset('"“”„«»')


def quote_piece(sentence: Sentence) -> bool:
    """A piece of a quotation that runs over several sentences: its double quotation marks
    do not pair up (`"They will be charged.`, `But this isn't about that.”`), so it is
    one sentence of someone's longer words, cut from what frames it."""
    return sum(ch in QUOTATION_MARKS for ch in sentence.text) % 2 == 1


# A web address: a scheme or "www.", or a host name followed by a path ("pic.twitter.com/x").
WEB_ADDRESS = re.compile(r"(?:https?://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S+",
                         re.IGNORECASE)


# The label of a line pointing to other content: "More: …", "READ MORE: …", "See also: …",
# "Related: …", "Watch: …" (about 3,300 lines of the AllSides archive; no pairs-dev sentence).
POINTER_LABEL = re.compile(r"\W*(?:read(?: more)?|more|see also|also read|related|watch|listen)"
                           r"\s*:", re.IGNORECASE)

# A related article's headline closed by its link's words, with no full stop ("Can the US
# break its cycle of gun control failure? Read more": 899 lines of the archive, none in
# pairs-dev); prose that ends on "read more." keeps its full stop.
POINTER_END = re.compile(r"\b(?:Read [Mm]ore|READ MORE)\s*$")


# An inline run of related-article links closed by the link word "MORE": The Hill follows a
# name with the person's full name and headlines about them ("Sen. Susan Collins Susan
# Margaret CollinsLawmakers under pressure to … MORE and …"). The word stands alone, in
# capitals, not as a label ("MORE:"), in a name ("B’MORE", "MORE-UFT", "(MORE) Act") or
# before another word in capitals ("MORE THAN"); a sentence in capitals is not read for it.
# In the AllSides archive it marks 5,934 of The Hill's 5,946 sentences holding "MORE", and 14
# sentences of other outlets (emphasis: "need MORE investment"; "OBS and MORE", a group).
LINK_RUN_END = re.compile(r"(?<![(\w’'-])MORE(?![\w:)-]| [A-Z]{2})")
SHOUTING_SHARE = 0.3


def shouting(text: str) -> bool:
    """More than `SHOUTING_SHARE` of its letters are capitals (a headline or cry in caps)."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(ch.isupper() for ch in letters) > SHOUTING_SHARE * len(letters)


def link_line(sentence: Sentence) -> bool:
    """A line that points elsewhere, not a claim of the article: it holds a web address (an
    embedded post's `pic.twitter.com/… — name (@handle) date`), opens with a pointer label
    (a "More: …" line: another article's headline), ends on "Read more", or holds an inline
    run of links closed by "MORE" (The Hill's related headlines after a name)."""
    text = sentence.text
    return (WEB_ADDRESS.search(text) is not None or POINTER_LABEL.match(text) is not None
            or POINTER_END.search(text) is not None
            or (LINK_RUN_END.search(text) is not None and not shouting(text)))


# Marks that end a sentence, in the scripts the pipelines read.
TERMINAL_MARKS = tuple(".!?…。！？।؟")
# What may follow the end of a sentence: closing quotes and brackets, reference marks
# ("[131]", "[citation needed]"), a stray hyphen.
TRAILING = re.compile(r"(?:[\s\"'”’»)\]-]|\[[^\[\]]*\])+$")


def unterminated(sentence: Sentence) -> bool:
    """No mark ends it: not a sentence of the article's prose but a caption ("Image caption
    Russian wooden dolls displayed in a Moscow shop"), a video label, a credit or an embedded
    post's signature, another article's headline, a newsletter prompt, or a line cut from its
    sentence ("the president’s task is to forge consensus among his political"). Of 10,141
    sentences of six words or more in 250 random AllSides articles, 444 have no end mark
    and break no other rule; of 40 of them read, 36 were such lines, 2 ended on a
    reference mark or a stray hyphen (now read past) and 2 were claims (a story
    highlight, a one-line summary). A title needs none: it is whole by what it is."""
    return not sentence.is_title and not TRAILING.sub("", sentence.text).endswith(TERMINAL_MARKS)


# The rules one sentence breaks whatever its partner, by name, in the order they are read.
ONE_SIDED_RULES: tuple[tuple[str, Callable[[Sentence], bool]], ...] = (
    ("fragment", fragment), ("quote_piece", quote_piece), ("link_line", link_line),
    ("unterminated", unterminated))


def one_sided_rule(sentence: Sentence) -> str | None:
    """The first rule of ONE_SIDED_RULES that the sentence breaks, or None: fragment (a piece
    of a sentence), quote_piece (one sentence of a longer quotation), link_line (a pointer
    to other content) or unterminated (no end mark: a caption, a label, a cut line)."""
    return next((name for name, breaks in ONE_SIDED_RULES if breaks(sentence)), None)


def pairable(sentence: Sentence, min_words: int) -> bool:
    """At least `min_words` words, and no rule of its own broken."""
    return len(sentence.text.split()) >= min_words and one_sided_rule(sentence) is None
