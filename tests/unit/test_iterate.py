"""batched: consecutive lists, read lazily."""

from __future__ import annotations

import pytest

from parawire.iterate import batched


def test_batches_keep_order_and_the_last_one_is_shorter():
    assert list(batched(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(batched([], 3)) == []


def test_the_input_is_read_one_batch_at_a_time():
    read: list[int] = []

    def items():
        for k in range(10):
            read.append(k)
            yield k

    batches = batched(items(), 4)
    assert next(batches) == [0, 1, 2, 3] and read == [0, 1, 2, 3]


def test_a_batch_size_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        list(batched([1], 0))
