import json

import pytest

from parawire.errors import ParawireError
from parawire.trainer import SPECIALS, Vocabulary, read_pairs, tokenize


def test_tokenize_splits_punctuation_and_lowercases():
    assert tokenize('Mayor "Elena" Varga said: yes.') == (
        "mayor", '"', "elena", '"', "varga", "said", ":", "yes", ".")


def test_read_pairs_and_vocabulary(tmp_path):
    path = tmp_path / "run.jsonl"
    rows = [{"input": "The council met.", "target": "Council met today."},
            {"input": "The budget rose.", "target": "The budget grew."}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pairs = read_pairs(path, max_len=3)
    assert pairs[0].source == ("the", "council", "met")
    vocab = Vocabulary.build(pairs, size=len(SPECIALS) + 2)
    assert vocab.itos[: len(SPECIALS)] == list(SPECIALS)
    assert vocab.itos[len(SPECIALS):] == ["the", "budget"]  # most frequent, ties by token
    assert vocab.decode(vocab.encode(["the", "zebra"])) == ["the", "<unk>"]


def test_bad_line_is_named(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"input": "a", "target": "b"}\n{"oops": 1}\n')
    with pytest.raises(ParawireError, match="bad.jsonl:2"):
        read_pairs(path)
