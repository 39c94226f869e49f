"""Scores of generated paraphrases against references: ROUGE-1/2/L F1 and corpus BLEU."""

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


def score_all(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, float]:
    """ROUGE-1/2/L F1 and BLEU in one dictionary."""
    return {**rouge_f1(hypotheses, references), "bleu": bleu(hypotheses, references)}
