"""A time budget for spaCy's training loop: a `before_update` callback that stops it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import spacy


class BudgetSpent(Exception):
    """Raised inside spaCy's training loop when the time budget is over."""


@spacy.registry.callbacks("parawire.time_budget.v1")
def time_budget(minutes: float) -> Callable[[Any, dict[str, Any]], None]:
    """A before_update callback that raises BudgetSpent once `minutes` have passed since the
    first update (0: no budget). spaCy saves the last model and keeps the best one."""
    started: list[float] = []

    def check(nlp: Any, info: dict[str, Any]) -> None:
        if not started:
            started.append(time.monotonic())
        if minutes and time.monotonic() - started[0] > minutes * 60:
            raise BudgetSpent(f"time budget of {minutes:g} min spent at step {info['step']}")

    return check
