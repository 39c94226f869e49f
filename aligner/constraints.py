"""Reference selection and Algorithm 1 of DESIGN.md, as pure functions."""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Constraints:
    """The parameters of reference selection and of Algorithm 1 (defaults: AlignParams)."""

    min_cn: int
    min_pn: int
    alpha: float


def is_reference(pn: Set[str], cn: Set[str], c: Constraints) -> bool:
    """RS membership: |CN(s)| >= min_CN and |PN(s)| >= min_PN."""
    return len(cn) >= c.min_cn and len(pn) >= c.min_pn


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
    """Algorithm 1: is sentence (pn, cn) a paraphrase candidate of reference (ref_pn, ref_cn)?"""
    if not ref_pn <= pn:
        return False
    if len(ref_cn) == c.min_cn:
        return ref_cn <= cn
    if len(ref_cn) > c.min_cn:
        return len(ref_cn & cn) / len(ref_cn) >= c.alpha
    return False
