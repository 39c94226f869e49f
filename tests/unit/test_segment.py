"""News passages before parsing: bylines, datelines and list markers, on real ECB+ text."""

from __future__ import annotations

import json
import re

import pytest

from parawire.nlp.segment import MAX_PASSAGE_CHARS, over_long_passages, passages


@pytest.fixture(scope="module")
def ecbplus(shared_data) -> dict[str, str]:
    with (shared_data / "ecbplus" / "articles.jsonl").open() as lines:
        return {r["id"]: r["text"] for r in map(json.loads, lines)}


def _first_sentence(text: str) -> str:
    return re.match(r".+?[.!?](?=\s|$)", text).group()


def test_a_dateline_run_on_after_a_headline_is_cut_out(ecbplus):
    text = ecbplus["13_7ecbplus"]  # "No injuries reported ALASKA - Shortly after 3 : 30 ..."
    headline, body, *_ = passages(text)
    assert headline == "No injuries reported"
    assert body.startswith("Shortly after 3 : 30 Tuesday morning") and "ALASKA" not in body


@pytest.mark.parametrize("dateline", [
    "PARIS (Reuters) - ", "PARIS (AFP) — ", "PARIS, Dec. 8 (AP) -- ", "PARIS – ", "NEW YORK (Reuters) - ",
])
def test_wire_datelines_are_cut_off(ecbplus, dateline):
    sentence = _first_sentence(ecbplus["24_2ecbplus"])  # "Thieves pulled off ... in central Paris ..."
    assert passages(dateline + sentence) == [sentence]


def test_hyphens_and_short_capitals_are_not_datelines(ecbplus):
    for key in ("44_11ecbplus", "42_3ecbplus"):  # "Hewlett - Packard Corp. (NYSE : HPQ) ...", "T - Mobile"
        sentence = _first_sentence(ecbplus[key])
        assert passages(sentence) == [sentence]
    assert passages("US - China talks resumed on Monday.") == ["US - China talks resumed on Monday."]


def test_bylines_are_dropped_but_sentences_starting_with_by_are_kept(ecbplus):
    by_sentence = re.search(r"By about 09 : 30 BST[^.]+\.", ecbplus["14_8ecbplus"]).group()
    body = _first_sentence(ecbplus["14_8ecbplus"])
    text = "\n".join(["By Staff Reporter", "By JANE DOE and John Roe, Staff Writers", body,
                      "Par Jean Dupont", by_sentence])
    assert passages(text) == [body, by_sentence]


def test_list_items_become_passages_without_their_markers(ecbplus):
    sentences = re.findall(r".+?[.!?](?=\s|$)", ecbplus["24_3ecbplus"])[:4]
    text = "\n".join([f"- {sentences[0]}", f"• {sentences[1]}", f"2) {sentences[2]} • {sentences[3]}"])
    assert passages(text) == [s.strip() for s in sentences]


def test_a_paragraph_over_the_parser_limit_is_cut_at_sentence_ends():
    sentence = "Mayor Zoë Ångström of Malmö opened the new harbour bridge on Tuesday. "
    paragraph = sentence * (1_200_000 // len(sentence) + 1)
    text = f"Short first paragraph.\n{paragraph}\nLast one."
    pieces = passages(text)
    assert pieces[0] == "Short first paragraph." and pieces[-1] == "Last one."
    middle = pieces[1:-1]
    assert all(len(p) <= MAX_PASSAGE_CHARS for p in middle) and len(middle) > 20
    assert all(p.startswith("Mayor Zoë") and p.endswith("Tuesday.") for p in middle)
    assert " ".join(middle) == paragraph.strip()
    assert over_long_passages(text) == 1


def test_a_paragraph_without_sentence_ends_is_cut_at_spaces_or_at_the_limit():
    words = "word " * 30_000
    assert all(len(p) <= MAX_PASSAGE_CHARS and not p.endswith(" ") for p in passages(words))
    assert " ".join(passages(words)) == words.strip()
    assert [len(p) for p in passages("x" * 120_000)] == [50_000, 50_000, 20_000]
