"""What the run's and the export's drops do to useful pairs on the dev gold's check part: the
shipped pair model alone, then with `quote_piece`, `unterminated` (lead sentences: a title
has no end mark, but a run never aligns titles) and `deletion_copy` (exact rules of the
run), `export.min_target_words` and `export.one_input_per_target` applied in turn, as a run
and its export apply them; on all candidates and on lead sentences only (a run aligns body
sentences: titles are not stored as sentences).

    nice .venv/bin/python bench/export_rules_quality.py

Scored as bench/pair_model_quality.py scores the check part (features cached there)."""

from __future__ import annotations

import json
from collections.abc import Callable

from common import SHARED_DATA, report
from pair_model_quality import cached_features

from parawire.aligner import Grading, load_pair_model
from parawire.config import AlignConfig, ExportConfig
from parawire.pairable import quote_piece, unterminated
from parawire.records import Direction, Sentence
from parawire.roof.pair_gold import GradedText, read_dev_gold
from parawire.roof.scorer_evaluation import input_is_a, useful_figures
from parawire.textnorm import word_diff, words

SUMMARY = ("selected", "precision", "recall", "useful_gold")


def target(pair: GradedText, grading: Grading, row: dict[str, float]) -> str:
    """The text the run would make the target."""
    return pair.text_b if input_is_a(grading.direction, row) else pair.text_a


def dropped(grading: Grading) -> Grading:
    return Grading(0, Direction.BOTH_ADD, grading.probabilities)


def one_input_per_target(pairs: list[GradedText], rows: list[dict[str, float]],
                         gradings: list[Grading]) -> list[Grading]:
    """Of the selected pairs of a story sharing a target, the most probable one only."""
    best: dict[tuple[str, str], tuple[float, int]] = {}
    for i, (pair, grading, row) in enumerate(zip(pairs, gradings, rows, strict=True)):
        if grading.grade >= 3:
            key = (pair.group, target(pair, grading, row))
            probability = sum(grading.probabilities[3:])
            if key not in best or probability > best[key][0]:
                best[key] = (probability, i)
    keep = {i for _, i in best.values()}
    return [dropped(g) if g.grade >= 3 and i not in keep else g for i, g in enumerate(gradings)]


def main() -> None:
    pairs = read_dev_gold(SHARED_DATA / "pairs-dev", "check")
    rows = cached_features("check", pairs)
    model = load_pair_model("")
    min_words, align = ExportConfig().min_target_words, AlignConfig()

    def piece(text: str) -> bool:
        return quote_piece(Sentence(article_id=0, position=0, text=text))

    sentences = (SHARED_DATA / "pairs-dev" / "sentences.jsonl").open(encoding="utf-8")
    titles = {s["text"] for s in map(json.loads, sentences) if s["kind"] == "title"}

    def cut(text: str) -> bool:  # a title is no stored sentence: the rule never reads one
        return text not in titles and unterminated(Sentence(article_id=0, position=0, text=text))

    steps: list[tuple[str, Callable[[list[Grading]], list[Grading]]]] = [
        ("model alone", lambda gs: gs),
        ("+ quote_piece", lambda gs: [dropped(g) if piece(p.text_a) or piece(p.text_b) else g
                                      for p, g in zip(pairs, gs, strict=True)]),
        ("+ unterminated", lambda gs: [dropped(g) if cut(p.text_a) or cut(p.text_b) else g
                                       for p, g in zip(pairs, gs, strict=True)]),
        ("+ deletion_copy", lambda gs: [
            dropped(g) if (diff := word_diff(p.text_a, p.text_b)).only_added
            and diff.edits > align.max_copy_edits else g for p, g in zip(pairs, gs, strict=True)]),
        (f"+ min_target_words {min_words}", lambda gs: [
            dropped(g) if g.grade >= 3 and len(words(target(p, g, r))) < min_words else g
            for p, g, r in zip(pairs, gs, rows, strict=True)]),
        ("+ one_input_per_target", lambda gs: one_input_per_target(pairs, rows, gs)),
    ]
    leads = [i for i, p in enumerate(pairs) if p.text_a not in titles and p.text_b not in titles]
    gradings = [model.grading(row) for row in rows]
    result = {}
    for name, step in steps:
        gradings = step(gradings)
        every = useful_figures(pairs, rows, gradings)
        lead = useful_figures([pairs[i] for i in leads], [rows[i] for i in leads],
                              [gradings[i] for i in leads])
        result[name] = {"all": {k: every[k] for k in SUMMARY},
                        "leads": {k: lead[k] for k in SUMMARY}}
    report("export_rules_quality", {"model": model.version, "part": "check",
                                    "steps": result})


if __name__ == "__main__":
    main()
