"""Scores of generated paraphrases against references: ROUGE-1/2/L F1 and corpus BLEU; with
the inputs too, BLEU to the input (self-BLEU), iBLEU and the share of outputs that are the
input unchanged."""

from __future__ import annotations

import re
from collections.abc import Sequence

_WORD = re.compile(r"\w+")


class UnicodeWords:
    """A tokenizer for `rouge-score` that keeps every script's letters and accents (its
    default drops whatever is not ASCII): case-folded runs of Unicode word characters."""

    def tokenize(self, text: str) -> list[str]:
        return _WORD.findall(text.casefold())


def rouge_f1(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, float]:
    """Mean ROUGE-1, ROUGE-2 and ROUGE-L F1 (0–100) over the pairs, with `rouge-score` on
    Unicode words (accented and non-Latin text scores like English)."""
    from rouge_score import rouge_scorer

    if len(hypotheses) != len(references):
        raise ValueError("as many hypotheses as references are needed")
    names = ("rouge1", "rouge2", "rougeL")
    scorer = rouge_scorer.RougeScorer(list(names), tokenizer=UnicodeWords())
    totals = dict.fromkeys(names, 0.0)
    for hypothesis, reference in zip(hypotheses, references, strict=True):
        scores = scorer.score(reference, hypothesis)
        for name in names:
            totals[name] += scores[name].fmeasure
    count = max(1, len(hypotheses))
    return {name: round(100 * total / count, 2) for name, total in totals.items()}


def bleu(hypotheses: Sequence[str], references: Sequence[str]) -> float:
    """Corpus BLEU (0–100, sacrebleu) of already tokenised, space-joined sentences."""
    import sacrebleu

    return round(sacrebleu.corpus_bleu(list(hypotheses), [list(references)], tokenize="none").score, 2)


IBLEU_ALPHA = 0.8


def score_all(hypotheses: Sequence[str], references: Sequence[str],
              inputs: Sequence[str] | None = None) -> dict[str, float]:
    """ROUGE-1/2/L F1 and BLEU in one dictionary; given the inputs, also `self_bleu` (BLEU
    to the input), `ibleu` (α·BLEU − (1 − α)·self-BLEU, α = 0.8, as paraphrase-generation
    papers report it) and `unchanged` (% of outputs equal to their input)."""
    scores = {**rouge_f1(hypotheses, references), "bleu": bleu(hypotheses, references)}
    if inputs is None:
        return scores
    if len(inputs) != len(hypotheses):
        raise ValueError("as many inputs as hypotheses are needed")
    self_bleu = bleu(hypotheses, inputs)
    same = sum(h.split() == i.split() for h, i in zip(hypotheses, inputs, strict=True))
    return {**scores, "self_bleu": self_bleu,
            "ibleu": round(IBLEU_ALPHA * scores["bleu"] - (1 - IBLEU_ALPHA) * self_bleu, 2),
            "unchanged": round(100 * same / max(1, len(hypotheses)), 2)}
