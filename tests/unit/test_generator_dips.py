"""The DiPS generator on tiny untrained models: distinct hypotheses of a wide beam, never the
input, chosen by the objective (λ = 1 picks the most faithful hypothesis first)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from parawire.config import DipsConfig, load_settings
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.generators import Source, build_generator
from parawire.trainer.generators.dips import DipsGenerator, mean_embedding
from parawire.trainer.generators.submodular import Objective
from tests.generator_models import tiny_models

WORDS = ["the", "mayor", "met", "council", "in", "town", "on", "monday", "and", ",", ".", "city",
         "leaders", "talked", "with", "officials", "said", "today"]
SOURCE = Source.from_text("The mayor met the city council in town on Monday.")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    return tiny_models(tmp_path_factory.mktemp("dips"), WORDS, [("the mayor met .", "officials met .")])


def _dips(models, weight):
    return DipsGenerator(models.forward, DecodeOptions(max_len=8), DipsConfig(beam=12, weight=weight))


def test_dips_chooses_distinct_hypotheses_of_the_beam_and_never_the_input(models):
    generator = _dips(models, 0.4)
    pool = {tokens for tokens, _ in generator.hypotheses(SOURCE)}
    outputs = generator.generate(SOURCE, 4, seed=1)
    keys = [tuple(t.casefold() for t in c.tokens) for c in outputs]
    assert 1 <= len(outputs) <= 4 and len(set(keys)) == len(keys)
    assert set(keys) <= pool and SOURCE.model_tokens not in keys
    assert all(c.origin == "dips" and 0 <= c.scores["overlap"] <= 1 for c in outputs)
    assert [c.text for c in generator.generate(SOURCE, 4, seed=2)] == [c.text for c in outputs]


def test_fidelity_alone_picks_the_most_faithful_hypothesis_first(models):
    generator = _dips(models, 1.0)
    pool = [tokens for tokens, _ in generator.hypotheses(SOURCE)]
    objective = Objective.build(pool, SOURCE.model_tokens,
                                [mean_embedding(models.forward, t) for t in pool],
                                mean_embedding(models.forward, SOURCE.model_tokens), 1.0, 3)
    best = max(range(len(pool)), key=lambda i: (objective.overlap[i] + objective.embedding[i], -i))
    first = generator.generate(SOURCE, 3, seed=1)[0]
    assert tuple(t.casefold() for t in first.tokens) == pool[best]


def test_dips_is_built_by_name_from_the_settings(models):
    settings = load_settings(None, generate={"dips": {"beam": 7, "weight": 0.3}})
    generator = build_generator("dips", models, settings)
    assert generator.name == "dips" and generator.options.beam == 7 and generator.config.weight == 0.3
