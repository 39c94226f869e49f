"""On random corpora, the tantivy-backed HCSSS candidates equal brute-force Algorithm 1.

Names are written in surface forms that differ from their entity keys ("Mr Name 1's"), so
both sides must compare the keys, as Algorithm 1 is defined."""

from dataclasses import replace
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parawire.aligner import AlignParams, brute_force_candidates, build_query
from parawire.indexer import TantivyIndex
from parawire.records import TITLE_POSITION
from tests.factories import make_sentence

PROPER = [f"name {i}" for i in range(6)]
SURFACES = ["{}", "mr {}", "{}'s", "sen. {}"]
COMMON = [f"noun{i}" for i in range(8)]


@st.composite
def corpora(draw):
    size = draw(st.integers(min_value=2, max_value=25))
    sentences = []
    titled: set[int] = set()  # an article has one title
    for sid in range(1, size + 1):
        article_id = draw(st.integers(1, 6))
        title = article_id not in titled and draw(st.integers(0, 3)) == 0
        if title:
            titled.add(article_id)
        keys = draw(st.lists(st.sampled_from(PROPER), min_size=0, max_size=5, unique=True))
        pn = [draw(st.sampled_from(SURFACES)).format(key) for key in keys]
        cn = draw(st.lists(st.sampled_from(COMMON), min_size=0, max_size=7, unique=True))
        sentences.append(make_sentence(
            sid, article_id=article_id, pn=pn, cn=cn, keys=keys,
            text=f"s{draw(st.integers(1, 4))} " + " ".join(pn + cn),
            language=draw(st.sampled_from(["en", "en", "fr"])),
            topic=draw(st.sampled_from(["politics", "sports"])),
            published=date(2026, 3, 1) + timedelta(days=draw(st.integers(0, 8))),
            position=TITLE_POSITION if title else sid,
            source=draw(st.sampled_from(["outlet-a", "outlet-b"])),
        ))
    return sentences


params_strategy = st.builds(
    AlignParams,
    min_cn=st.integers(1, 4), min_pn=st.integers(0, 3), sparse_min_pn=st.integers(0, 4),
    alpha=st.sampled_from([0.5, 0.6, 0.7, 0.75, 1.0]),
    date_window_days=st.integers(0, 4), same_topic=st.booleans(), exclude_same_outlet=st.booleans(),
)


def engine_candidates(index, sentences, params):
    """Every (reference, hit) of the engine, searched from each sentence the reference rule
    admits (min_pn proper nouns, or sparse_min_pn when lower); titles are not searched from
    (the titles source reads them)."""
    found = set()
    for reference in sentences:
        if reference.is_title:
            continue
        needed_pn = min(params.min_pn, params.sparse_min_pn)
        if not (len(reference.cn) >= params.min_cn and len(reference.pn) >= needed_pn):
            continue
        query = build_query(reference, params)
        if query is None:
            continue
        found.update((reference.id, hit.sentence_id) for hit in index.search(query))
    return found


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentences=corpora(), params=params_strategy)
def test_index_candidates_equal_brute_force(sentences, params):
    index = TantivyIndex(None)
    index.add(sentences)
    index.commit()
    assert engine_candidates(index, sentences, params) == brute_force_candidates(sentences, params)


@settings(max_examples=80, deadline=None)
@given(sentences=corpora(), params=params_strategy)
def test_the_sparse_rule_adds_exactly_the_pairs_searched_from_their_sparser_side(sentences,
                                                                                  params):
    """Below min_pn, the oracle keeps the paper's pairs and adds only pairs whose reference has
    from sparse_min_pn to min_pn - 1 proper nouns and whose candidate has at least min_pn."""
    paper = brute_force_candidates(sentences, params.model_copy(
        update={"sparse_min_pn": params.min_pn}))
    found = brute_force_candidates(sentences, params)
    assert paper <= found
    pn = {s.id: len(s.pn) for s in sentences}
    for reference, candidate in found - paper:
        assert params.sparse_min_pn <= pn[reference] < params.min_pn <= pn[candidate]
    if params.sparse_min_pn >= params.min_pn:
        assert found == paper


def test_known_pair_is_found_and_own_article_is_not():
    a = make_sentence(1, 1, ["elena varga", "port alder", "tuesday"], ["council", "budget", "tram"])
    b = make_sentence(2, 2, ["elena varga", "port alder", "tuesday", "x"],
                      ["council", "budget", "tram", "vote"], source="outlet-b")
    same_article = make_sentence(3, 1, ["elena varga", "port alder", "tuesday"],
                                 ["council", "budget", "tram"], position=1)
    index = TantivyIndex(None)
    index.add([a, b, same_article])
    index.commit()
    hits = index.search(build_query(a, AlignParams()))
    assert [hit.sentence_id for hit in hits] == [2]
    assert hits[0].score > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentences=corpora(), params=params_strategy, limit=st.integers(1, 4))
def test_a_limit_keeps_the_best_scored_hits(sentences, params, limit):
    index = TantivyIndex(None)
    index.add(sentences)
    index.commit()
    for reference in sentences:
        query = build_query(reference, params)
        if query is None:
            continue
        every = index.search(replace(query, limit=1000))
        best = index.search(replace(query, limit=limit))
        assert len(best) == min(limit, len(every))
        assert {hit.sentence_id for hit in best} <= {hit.sentence_id for hit in every}
        top = sorted((hit.score for hit in every), reverse=True)[:limit]
        assert sorted((hit.score for hit in best), reverse=True) == top


def test_a_limit_filled_by_name_only_matches_still_finds_the_noun_match():
    reference = make_sentence(1, 1, ["elena varga"], ["council", "budget", "tram"],
                              text="elena varga council budget tram")
    # Better scored (they repeat the reference's words) but without its common nouns.
    decoys = [make_sentence(sid, sid, ["elena varga"], ["weather"],
                            text="elena varga elena varga council budget tram talk")
              for sid in (2, 3, 4)]
    match = make_sentence(5, 5, ["elena varga"], ["council", "budget", "tram"],
                          text="elena varga spoke on the council budget and the new tram line")
    index = TantivyIndex(None)
    index.add([reference, *decoys, match])
    index.commit()
    query = build_query(reference, AlignParams(min_pn=1, max_hits=2))
    assert [hit.sentence_id for hit in index.search(query)] == [5]


def test_a_sparse_reference_finds_its_richer_partner_and_no_sparser_one():
    sparse = make_sentence(1, 1, ["dotson", "dennehy"], ["police", "murder", "teammate"],
                           text="Police charged Dotson with the murder of his teammate Dennehy.")
    richer = make_sentence(2, 2, ["dotson", "dennehy", "waco"], ["police", "murder", "teammate"],
                           text="Carlton Dotson was charged in Waco with the murder of teammate "
                                "Patrick Dennehy, police said.")
    as_sparse = make_sentence(3, 3, ["dotson", "dennehy"], ["police", "murder", "teammate"],
                              text="Dotson is held for the murder of his teammate Dennehy, "
                                   "police said.")
    index = TantivyIndex(None)
    index.add([sparse, richer, as_sparse])
    index.commit()
    gate = {"min_cn": 3, "min_pn": 3, "alpha": 0.7}  # the paper's, where the rule matters
    query = build_query(sparse, AlignParams(**gate, sparse_min_pn=1))
    assert query.min_pn_count == 3
    assert [hit.sentence_id for hit in index.search(query)] == [2]
    params = AlignParams(**gate, sparse_min_pn=2)
    assert engine_candidates(index, [sparse, richer, as_sparse], params) == {(1, 2), (3, 2)}
    paper = AlignParams(**gate, sparse_min_pn=3)
    assert engine_candidates(index, [sparse, richer, as_sparse], paper) == set()
