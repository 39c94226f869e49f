"""Online story grouping, a pure function of texts: a day's new articles join the stories
open around that day or open new ones; what is already grouped is never moved.

An article joins the story whose articles it resembles most on average (TF-IDF cosine of
title and lead, average link), when that mean reaches the threshold; otherwise it opens a
story of its own. The vectorizer is fitted on the texts of the day and of the open stories,
so the weights follow the news of those days. A word that only one of those texts holds
can match nothing, yet it lengthens its text's vector and so lowers every cosine of that
text, the more so where the window holds few texts: such words count `lone_word_weight`
times their TF-IDF weight (NeuS train, bench/stories_quality.py). In a window of fewer than
`lone_word_min_texts` texts every word is in one text or in all of them, and weighing the
first down would leave the words every text shares (articles, "said") to decide: there
they count fully."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

from parawire.config import StoriesConfig


@dataclass(frozen=True, slots=True)
class StoryText:
    """What grouping reads of an article: its id, outlet, day, and title with lead."""

    id: int
    outlet: str
    day: date
    text: str


def story_text(title: str, text: str, lead_words: int) -> str:
    """An article's title, twice (a title names the event: counting it twice gained a point
    of F1 on NeuS train), and the first `lead_words` words of its text."""
    return " ".join([title, title, *text.split()[:lead_words]]).strip()


def story_vectors(texts: Sequence[str], lone_word_weight: float,
                  lone_word_min_texts: int) -> sparse.csr_matrix:
    """Normalised TF-IDF rows of the texts (sublinear term frequency, the texts' own inverse
    document frequencies), the words found in one text only weighted `lone_word_weight`
    where there are `lone_word_min_texts` texts or more. Raises ValueError where no text
    has a word."""
    vectors = TfidfVectorizer(sublinear_tf=True).fit_transform(texts)
    if len(texts) < lone_word_min_texts:
        return vectors
    in_texts = np.diff(vectors.tocsc().indptr)
    weights = np.where(in_texts == 1, lone_word_weight, 1.0)
    return normalize(vectors @ sparse.diags(weights), copy=False).tocsr()


def group_day(open_stories: Sequence[Sequence[StoryText]], new: Sequence[StoryText],
              config: StoriesConfig) -> list[int]:
    """The group of each new article, in order: an index below len(open_stories) joins that
    story, an index at or above it is a story opened by the day (numbered as they open).
    New articles are placed one at a time, in the order given, so a later one may join a
    story an earlier one opened."""
    members = [article for story in open_stories for article in story] + list(new)
    if not new:
        return []
    texts = [article.text for article in members]
    try:
        vectors = story_vectors(texts, config.lone_word_weight, config.lone_word_min_texts)
    except ValueError:  # no word in any text: every new article stands alone
        return list(range(len(open_stories), len(open_stories) + len(new)))
    first_new = len(members) - len(new)
    similarity = (vectors[first_new:] @ vectors.T).toarray().astype(np.float32)
    # incidence[article, group]: 1 where the article belongs to the group
    incidence = np.zeros((len(members), len(open_stories) + len(new)), dtype=np.float32)
    row = 0
    for group, story in enumerate(open_stories):
        incidence[row:row + len(story), group] = 1.0
        row += len(story)
    sizes = incidence.sum(axis=0)
    opened = len(open_stories)
    groups: list[int] = []
    for k in range(len(new)):
        means = similarity[k] @ incidence[:, :opened] / np.maximum(sizes[:opened], 1.0)
        best = int(np.argmax(means)) if opened else -1
        if best < 0 or means[best] < config.threshold:
            best, opened = opened, opened + 1
        incidence[first_new + k, best] = 1.0
        sizes[best] += 1.0
        groups.append(best)
    return groups
