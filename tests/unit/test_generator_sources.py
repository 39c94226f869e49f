"""Candidate sources for overgen and rank: Apertium round trips (the Debian binary and its
English-Spanish pair; skipped with the reason when absent), chains of sources, and the
counting of what each prune step removes per source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from parawire.errors import ParawireError
from parawire.trainer.generators import Candidate, Source
from parawire.trainer.generators.apertium import Apertium, load_apertium, reversed_mode
from parawire.trainer.generators.chain import Chain, as_source
from parawire.trainer.generators.overgen import OverGenerate
from parawire.trainer.generators.prune import Thresholds
from parawire.trainer.generators.wordnet import SynonymGenerator, WordNet
from tests.unit.test_generator_overgen import WORDNET, bow_cosine, needs_wordnet

PAIR = Path("/usr/share/apertium/modes/eng-spa.mode")
needs_apertium = pytest.mark.skipif(
    shutil.which("apertium") is None or not PAIR.is_file(),
    reason="Debian's apertium and apertium-eng-spa are not installed (apt-get install apertium "
           "apertium-eng-spa)")


class CountingApertium(Apertium):
    """The real engine, counting its apertium processes."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def _run(self, text: str, mode: str) -> str:
        self.calls.append(mode)
        return super()._run(text, mode)


def test_the_way_back_reverses_the_pair():
    assert reversed_mode("eng-spa") == "spa-eng" and reversed_mode("ita-spa") == "spa-ita"


def test_a_missing_binary_is_a_one_line_reason():
    with pytest.raises(ParawireError, match="no parawire-no-such-apertium binary on PATH"):
        load_apertium({"en": "eng-spa"}, binary="parawire-no-such-apertium")


@needs_apertium
def test_a_missing_pair_is_a_one_line_reason_naming_the_installed_ones():
    with pytest.raises(ParawireError, match=r"no Apertium pair installed .*eng-xyz and xyz-eng.*eng-spa"):
        load_apertium({"en": "eng-xyz"})


@needs_apertium
def test_a_batch_round_trips_through_spanish_in_one_process_per_direction():
    trip = load_apertium({"en": "eng-spa", "de": "deu-spa"})  # no German pair: left out
    assert trip.pairs == {"en": "eng-spa"}
    engine = trip.engine = CountingApertium()
    sources = [Source.from_text("The minister met the council in Boston on Monday."),
               Source.from_text("Two men were arrested in 2008.\nThe police said so."),
               Source.from_text("Der Rat tagte.", language="de"),
               Source.from_text("The cat sat on the mat.")]
    outputs = trip.generate_batch(sources, 3, seed=1)
    assert engine.calls == ["eng-spa", "spa-eng"]
    assert outputs[2] == [] and all(len(out) == 1 for i, out in enumerate(outputs) if i != 2)
    first, second, _, third = (out[0] if out else None for out in outputs)
    assert first.origin == "apertium:eng-spa-noisy"
    assert "Boston" in first.tokens and "minister" in first.tokens
    assert "2008" in second.tokens and "\n" not in second.text  # a line per input, both sentences
    assert "police" in second.tokens and "cat" in third.tokens
    assert trip.generate(sources[0], 1, seed=2)[0].text == first.text  # the seed is unused


@needs_wordnet
def test_a_chain_rewrites_each_step_s_candidates_and_names_itself_in_the_origin():
    synonyms = SynonymGenerator(WordNet(WORDNET), 0.3)
    chain = Chain([synonyms, synonyms])
    source = Source.from_text("Yesterday Boston bought 40 quickly assembled cars and a large truck")
    once = {c.tokens for c in synonyms.generate(source, 4, seed=1)}
    outputs = chain.generate(source, 4, seed=1)
    assert chain.name == "wordnet>wordnet" and 1 <= len(outputs) <= 4
    assert len({c.tokens for c in outputs}) == len(outputs)
    for candidate in outputs:
        assert candidate.origin == "wordnet>wordnet" and candidate.tokens != source.tokens
        assert "Boston" in candidate.tokens and "40" in candidate.tokens
    # two rounds of swaps reach sentences one round does not
    assert {c.tokens for c in outputs} - once
    assert chain.generate_batch([source, source], 4, seed=1) == [outputs, outputs]


def test_a_chain_step_s_input_keeps_the_original_s_names_that_it_still_holds():
    original = Source.from_text("Smith met Jones in 2008", proper_nouns=["Smith", "Jones"])
    step = as_source(Candidate("Smith saw Brown in 2009", ("Smith", "saw", "Brown", "in", "2009"),
                               "wordnet"), original)
    assert step.proper_nouns == {"smith"} and step.numbers == {"2009"}


@needs_apertium
@needs_wordnet
def test_chains_are_built_from_the_sources_setting_and_skipped_with_the_step_s_reason(tmp_path):
    from parawire.config import load_settings
    from parawire.trainer.generators import Models
    from parawire.trainer.generators.registry import source_generators

    settings = load_settings(None, generate={"overgen": {"wordnet_dir": str(WORDNET)}})
    models = Models(forward=None)  # type: ignore[arg-type]  # no model source is named here
    built, skipped = source_generators(["apertium>wordnet", "wordnet"], models, settings)
    assert [g.name for g in built] == ["apertium>wordnet", "wordnet"] and skipped == {}
    (candidate,) = built[0].generate(Source.from_text("The minister met the big council."), 1, 1)
    assert candidate.origin == "apertium>wordnet"
    settings = load_settings(None, generate={"overgen": {"wordnet_dir": str(tmp_path)}})
    built, skipped = source_generators(["apertium>wordnet"], models, settings)
    assert built == [] and skipped["apertium>wordnet"].startswith("wordnet: no WordNet database")
    settings = load_settings(None, generate={"overgen": {"apertium_pairs": {"en": "eng-xyz"}}})
    built, skipped = source_generators(["apertium", "apertium>wordnet"], models, settings)
    assert built == []
    assert skipped["apertium"].startswith("no Apertium pair installed for the round trip (eng-xyz")
    assert skipped["apertium>wordnet"].startswith("apertium: no Apertium pair installed")
    with pytest.raises(ParawireError, match="unknown candidate source 'synonyms'"):
        source_generators(["apertium>synonyms"], models, settings)


def test_overgen_counts_what_each_prune_step_removes_per_source():
    source = Source.from_text("Smith said 2 men left the big old house on the hill", proper_nouns=["Smith"])

    def cand(text: str, origin: str) -> Candidate:
        return Candidate(text, tuple(text.split()), origin)

    beam = [cand("Smith said 2 men walked out of the big old house", "beam"),
            cand("Smith said 2 men left the big old house on the hill", "beam"),      # copy
            cand("Jones said 2 men left the old house on a hill", "beam")]            # name lost
    chain = [cand("Smith noted 2 men quit the old house up the hill", "wordnet>beam"),
             cand("stocks fell sharply", "wordnet>beam"),                             # irrelevant
             cand("Smith said 2 men walked out of the big old house again", "wordnet>beam")]
    overgen = OverGenerate([], 10, bow_cosine, Thresholds(0.5, 0.95, 0.0))
    outputs = overgen.choose(source, [beam, chain], 5)
    assert [c.origin for c in outputs] == ["overgen/beam", "overgen/wordnet>beam"]
    report = overgen.pool_report()
    assert report["pooled"] == 6 and report["kept"] == 2
    assert {k: report[f"removed_{k}"] for k in ("copies", "irrelevant", "duplicates", "names_numbers",
                                                 "backward_nll")} == \
        {"copies": 1, "irrelevant": 1, "duplicates": 1, "names_numbers": 1, "backward_nll": 0}
    assert report["pool:beam"] == 3 and report["pool:wordnet>beam"] == 3
    assert report["kept:beam"] == 1 and report["kept:wordnet>beam"] == 1
    overgen.choose(source, [beam], 5)
    assert overgen.pool_report()["pool:beam"] == 6  # adds up over calls
