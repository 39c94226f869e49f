"""What the run's and the export's drops do to useful pairs on the dev gold's check part: the
shipped pair model alone, then with `quote_piece`, `unterminated` (a title needs no end
mark) and `deletion_copy` (exact rules of the run), `export.min_target_words`,
`export.min_target_coverage` and `export.one_input_per_target` applied in turn, as a run
and its export apply them; on all candidates, on lead sentences only and on titles only (a
run pairs titles with titles).

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
from parawire.records import TITLE_POSITION, Direction, Sentence
from parawire.roof.pair_gold import GradedText, read_dev_gold
from parawire.roof.scorer_evaluation import input_is_a, target_share, useful_figures
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
    export, align = ExportConfig(), AlignConfig()
    min_words, min_coverage = export.min_target_words, export.min_target_coverage

    sentences = (SHARED_DATA / "pairs-dev" / "sentences.jsonl").open(encoding="utf-8")
    titles = {s["text"] for s in map(json.loads, sentences) if s["kind"] == "title"}

    def stored(text: str) -> Sentence:
        """The text as a run stores it: a title at TITLE_POSITION."""
        return Sentence(article_id=0, position=TITLE_POSITION if text in titles else 0,
                        text=text)

    def piece(text: str) -> bool:
        return quote_piece(stored(text))

    def cut(text: str) -> bool:
        return unterminated(stored(text))

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
        (f"+ min_target_coverage {min_coverage}", lambda gs: [
            dropped(g) if g.grade >= 3 and target_share(g.direction, r) < min_coverage else g
            for g, r in zip(gs, rows, strict=True)]),
        ("+ one_input_per_target", lambda gs: one_input_per_target(pairs, rows, gs)),
    ]
    leads = [i for i, p in enumerate(pairs) if p.text_a not in titles and p.text_b not in titles]
    headlines = [i for i, p in enumerate(pairs) if p.text_a in titles and p.text_b in titles]
    gradings = [model.grading(row) for row in rows]
    result = {}
    for name, step in steps:
        gradings = step(gradings)
        every = useful_figures(pairs, rows, gradings)
        result[name] = {"all": {k: every[k] for k in SUMMARY}}
        for kind, ids in (("leads", leads), ("titles", headlines)):
            part = useful_figures([pairs[i] for i in ids], [rows[i] for i in ids],
                                  [gradings[i] for i in ids])
            result[name][kind] = {k: part[k] for k in SUMMARY}
    report("export_rules_quality", {"model": model.version, "part": "check",
                                    "steps": result})


if __name__ == "__main__":
    main()
