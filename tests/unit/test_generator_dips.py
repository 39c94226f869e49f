"""The DiPS generator on tiny untrained models: distinct hypotheses of a wide beam, never the
input, chosen by the objective (λ = 1 picks the most faithful hypothesis first)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from parawire.config import DipsConfig, load_settings
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.generators import Source, build_generator
from parawire.trainer.generators.dips import DipsGenerator, keeping_names, mean_embedding
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
    generator = _dips(models, 1.0)  # among the hypotheses keep_names leaves
    pool = [tokens for tokens, _ in keeping_names(SOURCE, generator.hypotheses(SOURCE))]
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


def test_a_choice_that_keeps_the_best_extensions_is_plain_beam_search(models):
    model, options = models.forward, DecodeOptions(beam=4, max_len=8)
    seen: list[int] = []

    def keep_best(step, partials):
        seen.append(len(partials))
        return list(range(min(4, len(partials))))

    assert model.nbest(SOURCE.model_tokens, options, keep_best) == model.nbest(SOURCE.model_tokens,
                                                                              options)
    assert seen and max(seen) <= 12 and max(seen) > 4  # 3 × beam extensions offered


def test_per_step_dips_chooses_live_hypotheses_from_the_middle_on(models):
    config = DipsConfig(mode="per-step", step_beam=3, weight=0.2)
    generator = DipsGenerator(models.forward, DecodeOptions(max_len=8), config)
    assert generator.options.beam == 3
    choose = generator.per_step(SOURCE)
    partials = [["the", "mayor"], ["the", "mayor", "met"], ["city", "leaders"], ["the", "city"],
                ["officials", "talked"]]
    assert choose(0, partials) == [0, 1, 2]  # before the middle: plain beam order
    late = choose(len(SOURCE.model_tokens), partials)
    assert len(late) == 3 and len(set(late)) == 3
    outputs = generator.generate(SOURCE, 3, seed=1)
    assert 1 <= len(outputs) <= 3 and all(c.tokens for c in outputs)
    assert [c.text for c in generator.generate(SOURCE, 3, seed=1)] == [c.text for c in outputs]


def test_keep_names_policies_all_most_and_off():
    source = Source.from_text("The mayor met Zorvak on Monday, 2008.", proper_nouns=["Zorvak"])
    pool = [(("the", "mayor", "met", "zorvak", "in", "2008"), -1.0), (("the", "mayor", "met"), -1.1),
            (("zorvak", "met", "the", "mayor", "in", "2008"), -1.2), (("in", "2008"), -1.3)]
    assert keeping_names(source, pool) == [pool[0], pool[2]]  # however few: no filling up
    losing = pool[1:2] + pool[3:] + [(("zorvak", "left"), -2.0)]
    assert keeping_names(source, losing) == []  # none keeps both
    assert keeping_names(source, losing, "most") == [pool[3], (("zorvak", "left"), -2.0)]
    assert keeping_names(source, losing, "off") == losing
