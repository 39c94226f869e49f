from hypothesis import given
from hypothesis import strategies as st

from parawire.aligner import Constraints, is_paraphrase, is_reference, required_cn_matches

C = Constraints(min_cn=3, min_pn=3, alpha=0.7)


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
    c = Constraints(min_cn=min_cn, min_pn=0, alpha=alpha)
    ref_cn = {f"n{i}" for i in range(n)}
    needed = required_cn_matches(n, c)
    for shared in range(n + 1):
        cand = {f"n{i}" for i in range(shared)}
        accepted = is_paraphrase(set(), ref_cn, set(), cand, c)
        assert accepted == (needed is not None and shared >= needed)
