"""Decoding primitives and the generators on tiny untrained models built from a config:
constrained top-k sampling, teacher-forced scoring, n-best beam search, source n-gram blocking,
and sample-and-cluster end to end (determinism, the input's cluster left out)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from parawire.config import GenerateConfig  # noqa: E402
from parawire.trainer.batching import collate, encode_pair  # noqa: E402
from parawire.trainer.checkpoints import Progress, save_checkpoint  # noqa: E402
from parawire.trainer.corpus import TokenPair, Vocabulary  # noqa: E402
from parawire.trainer.decoding import (  # noqa: E402
    DecodeOptions,
    beam_search,
    mean_nll,
    nbest,
    ngrams,
    sample_topk,
)
from parawire.trainer.generators import Models, Source  # noqa: E402
from parawire.trainer.generators.beam import BeamGenerator  # noqa: E402
from parawire.trainer.generators.clustering import distance_tokens, token_distance  # noqa: E402
from parawire.trainer.generators.sample_cluster import (  # noqa: E402
    ConstrainedSampler,
    SampleCluster,
    calibrate_threshold,
)
from parawire.trainer.generators.scorers import BackwardNLL, ForwardNLL, SumScorer  # noqa: E402
from parawire.trainer.model import ModelConfig, PointerGenerator  # noqa: E402

WORDS = ["the", "mayor", "met", "council", "in", "town", "on", "monday", "and", ",", ".", "city",
         "leaders", "talked", "with", "officials", "said", "today"]
VOCAB = Vocabulary(WORDS)
SOURCE = ("the", "mayor", "zorvak", "met", "the", "city", "council", "in", "town", ".")


def _tiny(seed: int = 3) -> PointerGenerator:
    torch.manual_seed(seed)
    return PointerGenerator(ModelConfig.for_kind("pointer", len(VOCAB), embedding=8, hidden=12)).eval()


def _batch(tokens=SOURCE, target=()):
    item = encode_pair(TokenPair(tokens, target), VOCAB, copy=True)
    return item, collate([item])


def test_banned_words_are_never_sampled_at_minus_infinity():
    model = _tiny()
    item, batch = _batch()
    zorvak = len(VOCAB) + item.oovs.index("zorvak")
    banned = [{VOCAB.stoi["mayor"], VOCAB.stoi["council"], zorvak}] * 40 + [set()] * 40
    rows = torch.zeros(80, dtype=torch.long)
    options = DecodeOptions(max_len=12)
    samples = sample_topk(model, batch, rows, options, 10, banned, float("inf"),
                          torch.Generator().manual_seed(0))
    assert all(not set(s) & banned[0] for s in samples[:40])
    # Unconstrained rows of this untrained model do use them: the ban is what keeps them out.
    assert any(set(s) & banned[0] for s in samples[40:])


def test_a_negligible_finite_penalty_samples_like_no_constraint():
    model = _tiny()
    _, batch = _batch()
    rows = torch.zeros(20, dtype=torch.long)
    options = DecodeOptions(max_len=12)
    free = sample_topk(model, batch, rows, options, 10, [set()] * 20, float("inf"),
                       torch.Generator().manual_seed(1))
    tiny = sample_topk(model, batch, rows, options, 10, [{VOCAB.stoi["mayor"]}] * 20, 1e-9,
                       torch.Generator().manual_seed(1))
    assert free == tiny


def test_top_one_sampling_is_greedy_search():
    model = _tiny()
    _, batch = _batch()
    options = DecodeOptions(beam=1, max_len=12)
    (sampled,) = sample_topk(model, batch, torch.zeros(1, dtype=torch.long), options, 1, [set()],
                             float("inf"), torch.Generator().manual_seed(7))
    assert sampled == beam_search(model, batch, options)


@torch.no_grad()
def test_mean_nll_is_the_per_row_loss_over_its_tokens():
    model = _tiny()
    pairs = [TokenPair(SOURCE, ("the", "mayor", "met", "zorvak", ".")),
             TokenPair(("city", "leaders", "talked", "."), ("leaders", "talked", "today", "."))]
    items = [encode_pair(p, VOCAB, copy=True) for p in pairs]
    together = mean_nll(model, collate(items))
    for item, value in zip(items, together, strict=True):
        loss, count = model.loss(collate([item]), coverage_weight=0.0)
        assert value == pytest.approx(float(loss) / count, rel=1e-5)


def test_nbest_returns_every_finished_hypothesis_best_first():
    model = _tiny()
    _, batch = _batch()
    options = DecodeOptions(beam=4, max_len=8)
    ranked = nbest(model, batch, options)
    assert len(ranked) >= 4
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert ranked[0][0] == beam_search(model, batch, options)


def test_source_bigram_blocking_copies_no_bigram_of_the_input():
    model = _tiny()
    item, batch = _batch()
    source_bigrams = ngrams(item.source_ext, 2)
    for output, _ in nbest(model, batch, DecodeOptions(beam=4, max_len=12, block_source_ngrams=2)):
        assert not ngrams(output, 2) & source_bigrams


def test_a_name_bonus_makes_hypotheses_write_the_input_s_name():
    model = _tiny()
    item, batch = _batch()
    zorvak = item.source_ext[SOURCE.index("zorvak")]  # an OOV word: its copy id
    options = DecodeOptions(beam=4, max_len=8)
    plain = nbest(model, batch, options)
    boosted = nbest(model, batch, options, keep={zorvak}, bonus=50.0)
    assert not any(zorvak in tokens for tokens, _ in plain)
    assert boosted and all(tokens.count(zorvak) == 1 for tokens, _ in boosted)  # once: then no bonus
    assert nbest(model, batch, options, keep={zorvak}, bonus=0.0) == plain


def _checkpoint(folder: Path, seed: int, direction: str) -> Path:
    corpus = folder / "corpus"
    corpus.mkdir(exist_ok=True)
    rows = [{"input": "the mayor met the council in town .", "target": "city leaders talked ."},
            {"input": "the mayor said today .", "target": "officials said on monday ."}]
    (corpus / "valid.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    path = folder / f"{direction}.pt"
    save_checkpoint(path, _tiny(seed), VOCAB, "pointer",
                    {"max_len": 12, "corpus": str(corpus), "direction": direction}, Progress())
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    return Models.load(_checkpoint(folder, 3, "forward"), _checkpoint(folder, 4, "backward"),
                       device="cpu")


def _sample_cluster(models, threshold=float("inf"), **settings):
    config = GenerateConfig(constraint_sets=3, samples_per_set=10, **settings)
    sampler = ConstrainedSampler(models.forward, DecodeOptions(max_len=12), config)
    scorer = SumScorer("dual", [ForwardNLL(models.forward), BackwardNLL(models.backward)])
    return SampleCluster(sampler, scorer, threshold, config)


def test_sample_cluster_is_deterministic_and_leaves_out_the_inputs_cluster(models):
    source = Source.from_text("The mayor Zorvak met the city council in town.")
    generator = _sample_cluster(models)
    first = generator.generate(source, 3, seed=11)
    assert first and len(first) <= 3
    assert [c.text for c in first] == [c.text for c in generator.generate(source, 3, seed=11)]
    assert [c.text for c in first] != [c.text for c in generator.generate(source, 3, seed=12)]
    assert [c.scores["dual"] for c in first] == sorted(c.scores["dual"] for c in first)
    for candidate in first:
        assert candidate.origin.startswith("sample-cluster/sample:set")
        assert candidate.scores["dual"] == pytest.approx(
            candidate.scores["forward_nll"] + candidate.scores["backward_nll"])
        assert token_distance(distance_tokens(candidate.tokens), distance_tokens(source.tokens)) > 0
        assert "zorvak" not in candidate.tokens  # a copied name comes back cased
    assert generator.generate_batch([source, source], 3, seed=11)[1] == first
    assert generator.counts["sampled"] == 5 * 30  # five calls of 3 sets × 10


def test_threshold_drops_candidates_and_calibration_is_a_quantile(models):
    pairs = [(("the", "mayor", "met", "."), ("city", "leaders", "talked", ".")),
             (("the", "mayor", "said", "today", "."), ("officials", "said", "."))]
    low = calibrate_threshold(models.forward, models.backward, pairs, 0.0)
    high = calibrate_threshold(models.forward, models.backward, pairs, 1.0)
    middle = calibrate_threshold(models.forward, models.backward, pairs, 0.5)
    assert low < middle < high and middle == pytest.approx((low + high) / 2)
    generator = _sample_cluster(models, threshold=0.0)
    assert generator.generate(Source.from_text("The mayor met the council."), 3, seed=1) == []
    assert generator.drop_rate() == 1.0


def test_beam_generator_gives_distinct_cased_hypotheses(models):
    source = Source.from_text("The mayor Zorvak met the city council in town.")
    out = BeamGenerator(models.forward, DecodeOptions(beam=4, max_len=12)).generate(source, 3, 0)
    assert len(out) == 3 and len({c.tokens for c in out}) == 3
    assert all(c.text[:1].isupper() and c.origin == "beam" for c in out)
    assert all("zorvak" not in c.tokens for c in out)  # copied names come back cased
