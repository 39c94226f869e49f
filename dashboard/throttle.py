"""A value the dashboard computes at most every so many seconds, however many requests ask."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Throttled(Generic[T]):
    """`compute()`'s value, computed again only when the last one is `seconds` old, and by
    one request at a time: the others wait for that computation instead of starting theirs."""

    def __init__(self, compute: Callable[[], T], seconds: float) -> None:
        self.compute = compute
        self.seconds = seconds
        self._lock = threading.Lock()
        self._kept: tuple[float, T] | None = None

    def get(self) -> T:
        """The value, at most `seconds` old."""
        with self._lock:
            if self._kept is None or time.monotonic() - self._kept[0] >= self.seconds:
                self._kept = (time.monotonic(), self.compute())
            return self._kept[1]
