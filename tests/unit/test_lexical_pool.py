"""Lexical neighbours within a pool: the exact TF-IDF cosine ranking (against scikit-learn's
own pairwise cosine), ties by lower id, a text that shares no word left out, and a query
from outside the pool read with the pool's words."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity

from parawire.aligner.lexical import LexicalPool

# MSRP train sentences, and two that share no word with the first
TEXTS = {
    11: "Amrozi accused his brother, whom he called the witness, of deliberately distorting "
        "his evidence.",
    12: "Referring to him as only the witness, Amrozi accused his brother of deliberately "
        "distorting his evidence.",
    15: "Yucaipa owned Dominick's before selling the chain to Safeway in 1998 for $2.5 billion.",
    16: "Yucaipa bought Dominick's in 1995 for $693 million and sold it to Safeway for $1.8 "
        "billion in 1998.",
    20: "They had published an advertisement on the Internet on June 10, offering the cargo "
        "for sale, he added.",
    21: "Zebras graze.",
    22: "Zebras graze.",
}


def test_nearest_is_the_exact_tf_idf_cosine_ranking():
    ids = list(TEXTS)
    pool = LexicalPool(ids, list(TEXTS.values()))
    matrix = TfidfVectorizer(sublinear_tf=True, token_pattern=r"(?u)\b\w+\b").fit_transform(
        list(TEXTS.values()))
    scores = cosine_similarity(matrix)
    for row, query in enumerate(ids):
        among = [i for i in ids if i != query]
        expected = sorted((-scores[row][ids.index(i)], i) for i in among
                           if scores[row][ids.index(i)] > 0)
        got = pool.nearest(TEXTS[query], among, 3)
        assert [i for i, _ in got] == [i for _, i in expected[:3]]
        assert np.allclose([s for _, s in got], [-s for s, _ in expected[:3]])
    assert pool.nearest(TEXTS[21], [11, 12, 15, 16, 20], 5) == []  # no shared word
    assert pool.nearest(TEXTS[21], [22, 99], 5)[0][0] == 22  # 99 is not in the pool
    # a text outside the pool is read with the pool's words (its others cannot match)
    outside = "Amrozi's brother distorted the evidence, the witness said."
    assert [i for i, _ in pool.nearest(outside, [16, 12, 11, 15], 2)] == [11, 12]
    assert pool.nearest("Nothing alike here", [11], 5) == []
    assert LexicalPool([], []).nearest("Zebras graze.", [2], 3) == []
