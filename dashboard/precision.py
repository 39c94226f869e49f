"""Estimated precision of a run from an operator's labels, with a Wilson score interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True, slots=True)
class Precision:
    """How many labeled pairs were right, and what that says about the whole run."""

    right: int
    wrong: int
    estimate: float | None
    low: float | None
    high: float | None

    @property
    def labeled(self) -> int:
        """How many pairs carry a label."""
        return self.right + self.wrong


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (trials > 0)."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def precision_of(right: int, wrong: int) -> Precision:
    """The precision estimate and its 95% interval (None while nothing is labeled)."""
    total = right + wrong
    if total == 0:
        return Precision(right, wrong, None, None, None)
    low, high = wilson_interval(right, total)
    return Precision(right, wrong, right / total, low, high)
