"""Augmentation rows: labels kept, one copy per paraphrase, bad files as one-line errors."""

from __future__ import annotations

import pytest

from parawire.errors import ParawireError
from parawire.trainer.generators import Candidate
from parawire.trainer.generators.augment import augmented, read_rows


def test_each_row_is_followed_by_a_labelled_copy_per_paraphrase():
    rows = [{"text": "Bob met Alice.", "label": "meet"}, {"text": "It rained.", "label": "weather"}]
    outputs = [[Candidate("Alice met Bob.", ("Alice", "met", "Bob", "."), "beam"),
                Candidate("Bob saw Alice.", ("Bob", "saw", "Alice", "."), "beam")], []]
    assert augmented(rows, "text", outputs) == [
        {"text": "Bob met Alice.", "label": "meet"},
        {"text": "Alice met Bob.", "label": "meet", "augmented_from": 0, "origin": "beam"},
        {"text": "Bob saw Alice.", "label": "meet", "augmented_from": 0, "origin": "beam"},
        {"text": "It rained.", "label": "weather"}]


def test_read_rows_names_the_file_and_line_of_a_bad_row(tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text('{"text": "a b", "label": 1}\n\n{"label": 2}\n')
    with pytest.raises(ParawireError, match=r"data.jsonl:3: no text in field 'text'"):
        read_rows(path, "text")
    path.write_text('{"text": "a b"}\nnot json\n')
    with pytest.raises(ParawireError, match=r"data.jsonl:2: not JSON"):
        read_rows(path, "text")
    path.write_text('{"text": "a b", "label": 1}\n')
    assert read_rows(path, "text") == [{"text": "a b", "label": 1}]
