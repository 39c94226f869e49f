"""Reference selection and Algorithm 1 of DESIGN.md, as pure functions.

With `sparse_min_pn` below `min_pn`, a pair is also searched from its sparser side: a
sentence with at least `sparse_min_pn` proper nouns (and `min_cn` common nouns) is a
reference too, and a candidate must then hold `min_pn` proper nouns itself, so the pair as a
whole still meets the full rule on its richer side. At `sparse_min_pn >= min_pn` the rule is
off and both definitions are the paper's.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Constraints:
    """The parameters of reference selection and of Algorithm 1 (defaults: AlignParams)."""

    min_cn: int
    min_pn: int
    alpha: float
    sparse_min_pn: int

    @property
    def reference_min_pn(self) -> int:
        """Proper nouns a reference needs: `sparse_min_pn`, or `min_pn` when that is lower."""
        return min(self.sparse_min_pn, self.min_pn)


def is_reference(pn: Set[str], cn: Set[str], c: Constraints) -> bool:
    """RS membership: |CN(s)| >= min_CN and |PN(s)| >= min(sparse_min_PN, min_PN)."""
    return len(cn) >= c.min_cn and len(pn) >= c.reference_min_pn


def required_cn_matches(cn_count: int, c: Constraints) -> int | None:
    """How many of the reference's common nouns a candidate must share (None: no candidate can).

    |CN(rs)| = min_CN needs them all; above min_CN the smallest m with m/|CN(rs)| >= alpha,
    using the same float comparison as Algorithm 1 so that both agree exactly.
    """
    if cn_count < c.min_cn or cn_count == 0:
        return None
    if cn_count == c.min_cn:
        return cn_count
    return next(m for m in range(cn_count + 1) if m / cn_count >= c.alpha)


def is_paraphrase(ref_pn: Set[str], ref_cn: Set[str], pn: Set[str], cn: Set[str],
                  c: Constraints) -> bool:
    """Algorithm 1: is sentence (pn, cn) a paraphrase candidate of reference (ref_pn, ref_cn)?

    Besides PN(rs) ⊆ PN(s), the candidate must hold min_PN proper nouns: a reference with
    fewer (the sparse rule) finds only richer partners; one with min_PN finds no other kind.
    """
    if not ref_pn <= pn or len(pn) < c.min_pn:
        return False
    if len(ref_cn) == c.min_cn:
        return ref_cn <= cn
    if len(ref_cn) > c.min_cn:
        return len(ref_cn & cn) / len(ref_cn) >= c.alpha
    return False
