from hypothesis import given
from hypothesis import strategies as st

from parawire.aligner import Constraints, is_paraphrase, is_reference, required_cn_matches

C = Constraints(min_cn=3, min_pn=3, alpha=0.7, sparse_min_pn=3)
# The same, with references searched from their sparser side down to two proper nouns.
SPARSE = Constraints(min_cn=3, min_pn=3, alpha=0.7, sparse_min_pn=2)

# "Police charged Dotson with the murder of his teammate Dennehy." and its richer partner
# "Carlton Dotson was charged in Waco with the murder of teammate Patrick Dennehy, police
# said.", as entity keys and common nouns.
SPARSER_PN, SPARSER_CN = {"dotson", "dennehy"}, {"police", "murder", "teammate"}
RICHER_PN, RICHER_CN = {"dotson", "dennehy", "waco"}, {"police", "murder", "teammate"}


def test_reference_needs_min_cn_and_min_pn():
    assert is_reference({"a", "b", "c"}, {"x", "y", "z"}, C)
    assert not is_reference({"a", "b"}, {"x", "y", "z", "w"}, C)
    assert not is_reference({"a", "b", "c"}, {"x", "y"}, C)


def test_exactly_min_cn_requires_every_common_noun():
    ref_pn, ref_cn = {"varga", "port alder", "tuesday"}, {"council", "budget", "tram"}
    assert is_paraphrase(ref_pn, ref_cn, ref_pn | {"x"}, ref_cn | {"vote"}, C)
    assert not is_paraphrase(ref_pn, ref_cn, ref_pn, {"council", "budget"}, C)


def test_more_than_min_cn_uses_alpha():
    ref_pn = {"a", "b", "c"}
    ref_cn = {"n1", "n2", "n3", "n4", "n5"}
    assert is_paraphrase(ref_pn, ref_cn, ref_pn, {"n1", "n2", "n3", "n4"}, C)  # 0.8
    assert not is_paraphrase(ref_pn, ref_cn, ref_pn, {"n1", "n2", "n3"}, C)  # 0.6


def test_every_proper_noun_of_the_reference_is_required():
    ref_cn = {"x", "y", "z"}
    assert not is_paraphrase({"a", "b", "c"}, ref_cn, {"a", "b"}, ref_cn, C)


def test_fewer_than_min_cn_is_never_a_paraphrase():
    assert not is_paraphrase({"a"}, {"x", "y"}, {"a"}, {"x", "y"}, C)
    assert required_cn_matches(2, C) is None


def test_required_matches_examples():
    assert required_cn_matches(3, C) == 3
    assert required_cn_matches(4, C) == 3  # 3/4 = 0.75 >= 0.7
    assert required_cn_matches(10, C) == 7
    assert required_cn_matches(9, C) == 7  # 6/9 = 0.667 < 0.7


@given(n=st.integers(min_value=1, max_value=40),
       alpha=st.floats(min_value=0.05, max_value=1.0), min_cn=st.integers(1, 6))
def test_required_matches_agrees_with_algorithm_1(n, alpha, min_cn):
    c = Constraints(min_cn=min_cn, min_pn=0, alpha=alpha, sparse_min_pn=0)
    ref_cn = {f"n{i}" for i in range(n)}
    needed = required_cn_matches(n, c)
    for shared in range(n + 1):
        cand = {f"n{i}" for i in range(shared)}
        accepted = is_paraphrase(set(), ref_cn, set(), cand, c)
        assert accepted == (needed is not None and shared >= needed)


def test_without_the_sparse_rule_the_pair_is_searched_from_neither_side():
    assert not is_reference(SPARSER_PN, SPARSER_CN, C)
    assert is_reference(RICHER_PN, RICHER_CN, C)
    # the richer side's names are not all in the sparser one
    assert not is_paraphrase(RICHER_PN, RICHER_CN, SPARSER_PN, SPARSER_CN, C)


def test_the_sparse_rule_finds_the_pair_from_its_sparser_side():
    assert is_reference(SPARSER_PN, SPARSER_CN, SPARSE)
    assert is_paraphrase(SPARSER_PN, SPARSER_CN, RICHER_PN, RICHER_CN, SPARSE)
    assert not is_paraphrase(RICHER_PN, RICHER_CN, SPARSER_PN, SPARSER_CN, SPARSE)


def test_a_sparse_reference_needs_a_candidate_with_min_pn_names():
    # "Dotson's lawyer spoke of the murder of his teammate Dennehy, police said." shares
    # every name and noun but has no third name either: neither side meets min_pn.
    assert not is_paraphrase(SPARSER_PN, SPARSER_CN, SPARSER_PN, SPARSER_CN | {"lawyer"}, SPARSE)
    assert not is_reference({"dotson"}, SPARSER_CN, SPARSE)


def test_the_sparse_rule_at_or_above_min_pn_is_the_papers_rule():
    for sparse in (3, 4, 9):
        c = Constraints(min_cn=3, min_pn=3, alpha=0.7, sparse_min_pn=sparse)
        assert c.reference_min_pn == 3
        assert not is_reference(SPARSER_PN, SPARSER_CN, c)
        assert is_reference(RICHER_PN, RICHER_CN, c)
    assert SPARSE.reference_min_pn == 2


def test_a_sparse_reference_still_needs_its_common_nouns():
    assert not is_reference(SPARSER_PN, {"police", "murder"}, SPARSE)
    assert not is_paraphrase(SPARSER_PN, SPARSER_CN, RICHER_PN, {"police", "murder"}, SPARSE)


@given(ref_pn=st.sets(st.sampled_from("abcdef"), max_size=4),
       pn=st.sets(st.sampled_from("abcdef"), max_size=6),
       min_pn=st.integers(0, 4), sparse_min_pn=st.integers(0, 5))
def test_a_reference_at_min_pn_accepts_what_the_paper_accepts(ref_pn, pn, min_pn, sparse_min_pn):
    """The candidate's own min_pn only constrains references below min_pn."""
    cn = {"x", "y", "z"}
    c = Constraints(min_cn=3, min_pn=min_pn, alpha=0.7, sparse_min_pn=sparse_min_pn)
    accepted = is_paraphrase(ref_pn, cn, pn, cn, c)
    if len(ref_pn) >= min_pn:
        assert accepted == (ref_pn <= pn)
    else:
        assert accepted == (ref_pn <= pn and len(pn) >= min_pn)
