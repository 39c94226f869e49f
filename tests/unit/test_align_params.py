"""Alignment parameters: defaults and checks from [align], scope, JSON and run keys."""

from datetime import date

import pytest
from pydantic import ValidationError

from parawire.aligner import AlignParams
from parawire.config import AlignConfig

SCOPE = {"language": "en", "topic": "politics", "since": date(2026, 3, 1), "until": date(2026, 3, 2)}


def test_defaults_are_the_align_sections():
    versions = {"pair_model_version"}
    assert AlignParams().model_dump(exclude={*SCOPE, *versions}) == AlignConfig().model_dump(
        exclude={"batch_size"})


def test_from_config_records_the_pair_model_version_so_another_model_is_another_run():
    params = AlignParams.from_config(AlignConfig())
    assert params.pair_model_version.startswith("grade-lr-")
    other = AlignParams.from_config(AlignConfig(), pair_model_version="grade-lr-other")
    assert params.run_key() != other.run_key()


def test_from_config_adds_the_scope_and_leaves_the_batch_size_out_of_the_key():
    config = AlignConfig(beta=0.8, normalize="self", batch_size=5)
    params = AlignParams.from_config(config, **SCOPE)
    assert (params.beta, params.normalize, params.since) == (0.8, "self", SCOPE["since"])
    bigger_batches = AlignParams.from_config(config.model_copy(update={"batch_size": 500}), **SCOPE)
    assert params.run_key() == bigger_batches.run_key()
    assert params.run_key() != AlignParams.from_config(config).run_key()


def test_json_round_trip_and_a_key_recorded_by_earlier_versions():
    params = AlignParams(min_cn=2, min_pn=1, sparse_min_pn=0, alpha=0.75, beta=0.6,
                         date_window_days=2, same_topic=True, exclude_same_outlet=True,
                         normalize="self", max_hits=50, min_semantic_similarity=0.3, **SCOPE)
    assert params.to_json()["since"] == "2026-03-01"
    assert AlignParams.from_json(params.to_json()) == params
    # A stable key for these parameters: stored runs keep resuming. (Runs stored before the
    # pair scorer and its filters, before the word-edit, edit-share and added-words filters,
    # or before the sparse reference rule, or before the search within stories (align.within),
    # have other keys: their pairs were found by other rules; so do runs stored before the
    # candidate sources' settings, align.method and the dense source's k, minimum words,
    # margin neighbourhood and mutual-best, runs stored before the pair model graded
    # candidates in place of the old filters and binary scorer, and runs stored before the
    # dense source's lexical share or its cosine floor.)
    assert params.run_key() == "840bb4335087573aeb18a4505c4265aea8e419676bfaab16a23e35de01ff03cb"


@pytest.mark.parametrize("bad", [{"normalize": "median"}, {"alpha": 1.5}, {"batch_size": 10}])
def test_values_the_config_rejects_are_rejected(bad):
    with pytest.raises(ValidationError):
        AlignParams(**bad)
