"""Rank many candidates: the mean-rank order on hand-made columns, each filter on a pool of
hand-made candidates (a real LM trained here, a bag-of-words cosine), and rank end to end on
tiny untrained models with two models' beams."""

from __future__ import annotations

from pathlib import Path

import pytest

from parawire.trainer.generators import Candidate, Generator, OneByOne, Source
from parawire.trainer.generators.lm import KneserNey
from parawire.trainer.generators.rank import Bars, RankMany, mean_ranks
from tests.unit.test_generator_overgen import bow_cosine

SOURCE = Source.from_text("Smith said the two men left the old house on the hill",
                          proper_nouns=["Smith"])
CORPUS = ["smith said the two men left the old house", "the two men walked out of the house",
          "smith said two men quit the old house", "the men left the house on the hill",
          "two men walked out of the old house on the hill"]


class Fixed(OneByOne):
    """A source generator that returns the same texts for every input."""

    def __init__(self, name: str, texts: list[str]) -> None:
        self.name = name
        self.texts = texts

    def generate(self, source: Source, n: int, seed: int) -> list[Candidate]:
        return [Candidate(t, tuple(t.split()), self.name) for t in self.texts[:n]]


def test_mean_ranks_average_each_columns_rank():
    assert mean_ranks([[0.9, 0.5, 0.7], [1.0, 3.0, 2.0]], [True, False]) == [0.0, 2.0, 1.0]
    assert mean_ranks([[1.0, 1.0, 0.0]], [True]) == [0.0, 0.0, 2.0]


def test_each_filter_removes_what_it_names_and_the_rest_are_ranked():
    lm = KneserNey([s.split() for s in CORPUS], 3)
    sources: list[Generator] = [
        Fixed("a", ["Smith said the two men left the old house on the hill",   # copy
                    "Smith said the two men left the old house on the hill .",  # copy (punct)
                    "Smith said two men walked out of the old house on the hill",
                    "hill the on house old the left men two the said Smith"]),  # not fluent
        Fixed("b", ["Smith said two men quit the old house",
                    "stocks fell sharply on the news",                           # words unknown to the LM
                    "Jones said two men walked out of the old house"])]         # name lost
    ranker = RankMany(sources, 10, lm, bow_cosine, Bars(10.0, 1.0, 0.5))
    outputs = ranker.generate(SOURCE, 5, seed=1)
    assert {c.text for c in outputs} == {"Smith said two men walked out of the old house on the hill",
                                         "Smith said two men quit the old house"}
    report = ranker.pool_report()
    assert report == {"pooled": 7, "removed_copies": 2, "removed_diversity": 0,
                      "removed_fluency": 2, "removed_semantic": 1, "kept": 2}
    ranks = [c.scores["mean_rank"] for c in outputs]
    assert ranks == sorted(ranks) and all(c.origin.startswith("rank/") for c in outputs)
    strict = RankMany(sources, 10, lm, bow_cosine, Bars(60.0, 1.0, 0.5))
    assert all(c.scores["one_minus_bleu"] >= 60 for c in strict.generate(SOURCE, 5, seed=1))
    assert strict.pool_report()["removed_diversity"] > 0


def test_rank_is_built_by_name_over_both_models(tmp_path: Path):
    pytest.importorskip("torch")
    from parawire.config import load_settings
    from parawire.trainer.generators import build_generator
    from tests.generator_models import tiny_models

    words = ["the", "mayor", "met", "council", "in", "town", "city", "."]
    models = tiny_models(tmp_path, words, [("the mayor met the council .", "the council met .")])
    models.similarity = bow_cosine
    settings = load_settings(None, generate={
        "score_threshold": 9.0, "constraint_sets": 2, "samples_per_set": 3, "dips": {"beam": 6},
        "rank": {"per_source": 3, "min_cosine": -1.0, "fluency_margin": 100.0,
                 "min_one_minus_bleu": 0.0, "sources": ["beam-blocked", "backward", "sample"]}},
        train={"max_len": 8})
    generator = build_generator("rank", models, settings)
    assert [g.name for g in generator.sources] == ["beam-blocked", "backward", "sample"]
    source = Source.from_text("The mayor met the city council in town.")
    outputs = generator.generate(source, 4, seed=1)
    assert len(outputs) <= 4
    assert all({"log_perplexity", "input_cosine", "backward_nll", "mean_rank"} <= set(c.scores)
               for c in outputs)
    assert generator.generate(source, 4, seed=1) == outputs
    models.backward = None
    lone = build_generator("rank", models, settings)
    assert "backward" in lone.pool_report()["skipped:backward"]
