"""Iteration helpers shared by the stages."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of `size` items (the last one shorter), read lazily."""
    if size < 1:
        raise ValueError(f"batch size must be at least 1, not {size}")
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
