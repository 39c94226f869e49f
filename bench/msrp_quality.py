"""Aligner quality on MSRP: labelled news sentence pairs (tuned on train, scored on val).

    nice -n 10 .venv/bin/python bench/msrp_quality.py [--retrieval] [--sparse-min-pn 0 1 2 3]

1. Classifier, on the val split (nothing here is tuned on it): a labelled pair is predicted
   a paraphrase when
   - Algorithm 1 (paper's defaults, or the --gate criteria) accepts it from either side,
     with proper nouns compared as surface names (before issue 12) or entity keys (now);
   - USE cosine alone reaches a threshold chosen on train for precision 0.93 / 0.90;
   - the shipped pair scorer (trained on MSRP train) reaches its threshold (precision 0.90
     in cross-validation on train) or the one for 0.93 (also from train);
   - the --gate criteria ([align]'s by default) accept it and the scorer keeps it (the
     aligner's own decision).
   For the curves, the precision at recall 0.30 and 0.50 on val is read off too. The
   filters for pairs that teach nothing are applied to the val pairs the scorer keeps and
   counted (MSRP labels quote copies paraphrases; a corpus should not hold them).
2. Reference rule (--sparse-min-pn): Algorithm 1 at the default [align] criteria with each
   given sparse_min_pn (a pair searched from its sparser side too), alone and with the
   shipped scorer at align.min_probability, on train (where the default is chosen; the
   scorer was fitted there, so its train figures are in-sample) and on val.
3. Near-verbatim rule (--near-verbatim FLOOR SHARE ...): on train (where it is tuned) and
   val, how many paraphrases and non-paraphrases the near-verbatim check drops at [align]'s
   min_word_edits and min_edit_share and at each given pair (4 0: fewer than four word
   edits whatever the length, with the added-words part as at every pair); among the
   paraphrases, how many of those of 15 or fewer words.
4. Retrieval (--retrieval): every MSRP sentence of the --retrieval-splits (train and val
   unless told) indexed, the aligner run over all of them with the default [align], and with
   the --gate criteria or (when given) at the defaults with each --sparse-min-pn; among the
   mined pairs labelled in MSRP, how many are paraphrases, and how many labelled paraphrases
   were found.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from common import SEED_CACHE, build_corpus, msrp_pairs, read_msrp, report

from parawire.aligner import (
    Constraints,
    fit_scorer,
    is_paraphrase,
    is_reference,
    labelled_signals,
    load_scorer,
)
from parawire.aligner.filters import drop_reason, near_verbatim
from parawire.aligner.scorer import precision_threshold
from parawire.config import AlignConfig
from parawire.records import Sentence
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.textnorm import words

PAPER = Constraints(min_cn=3, min_pn=3, alpha=0.7, sparse_min_pn=3)


def msrp_signals(split: str, pairs: list[tuple[Sentence, Sentence, bool]]) -> list[dict]:
    """The pair signals of a split (computed once, then read from bench/.cache/)."""
    cache = SEED_CACHE.with_name(f"msrp_{split}_signals.json")
    if not cache.is_file():
        cache.write_text(json.dumps(labelled_signals([(a, b) for a, b, _ in pairs])))
    return json.loads(cache.read_text())


def precision_recall(predicted: Sequence[bool], labels: Sequence[bool]) -> dict[str, Any]:
    tp = sum(p and y for p, y in zip(predicted, labels, strict=True))
    fp = sum(p and not y for p, y in zip(predicted, labels, strict=True))
    return {"predicted": tp + fp, "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "recall": round(tp / sum(labels), 4)}


def precision_at_recall(scores: Sequence[float], labels: Sequence[bool],
                        recall: float) -> float | None:
    """Precision of the highest-scored pairs once they hold `recall` of the positives."""
    ranked = sorted(zip(scores, labels, strict=True), key=lambda pair: -pair[0])
    needed, right = recall * sum(labels), 0
    for k, (_, label) in enumerate(ranked, start=1):
        right += label
        if right >= needed:
            return round(right / k, 4)
    return None


def accepted(constraints: Constraints, pn: Callable[[Sentence], frozenset[str]]):
    def gate(a: Sentence, b: Sentence) -> bool:
        return any(is_reference(pn(r), r.cn, constraints)
                   and is_paraphrase(pn(r), r.cn, pn(c), c.cn, constraints)
                   for r, c in ((a, b), (b, a)))
    return gate


def surface(sentence: Sentence) -> frozenset[str]:
    return frozenset(sentence.proper_nouns)


def entity_keys(sentence: Sentence) -> frozenset[str]:
    return sentence.pn


def classifier(gate: Constraints) -> dict[str, Any]:
    train, val = msrp_pairs("train"), msrp_pairs("val")
    train_rows, val_rows = msrp_signals("train", train), msrp_signals("val", val)
    y_train, y_val = [y for *_, y in train], [y for *_, y in val]
    scorer = load_scorer()
    strict = fit_scorer(train_rows, y_train, target_precision=0.93, trained_on="msrp train")
    probabilities = [scorer.probability(row) for row in val_rows]
    cosines = [row["cosine"] for row in val_rows]
    result: dict[str, Any] = {"val_pairs": len(val), "val_paraphrases": sum(y_val),
                              "scorer_version": scorer.version}
    for name, pn in (("surface_names", surface), ("entity_keys", entity_keys)):
        for label, constraints in (("paper", PAPER), ("gate", gate)):
            test = accepted(constraints, pn)
            result[f"algorithm_1_{label}_{name}"] = precision_recall(
                [test(a, b) for a, b, _ in val], y_val)
    train_cosines = [row["cosine"] for row in train_rows]
    for target in (0.93, 0.90):
        threshold = precision_threshold(train_cosines, y_train, target)[0]
        result[f"cosine_alone_train_threshold_{target}"] = {
            "threshold": round(threshold, 4),
            **precision_recall([c >= threshold for c in cosines], y_val)}
    for name, threshold in (("scorer_threshold_0.90", scorer.threshold),
                            ("scorer_threshold_0.93", strict.threshold)):
        result[name] = {"threshold": threshold,
                        **precision_recall([p >= threshold for p in probabilities], y_val)}
    gated = accepted(gate, entity_keys)
    in_gate = [gated(a, b) for a, b, _ in val]
    for name, threshold in (("gate_and_scorer_0.90", scorer.threshold),
                            ("gate_and_scorer_0.93", strict.threshold)):
        result[name] = {"threshold": threshold, **precision_recall(
            [g and p >= threshold for g, p in zip(in_gate, probabilities, strict=True)], y_val)}
    result["precision_at_recall"] = {
        f"{name}_{recall}": precision_at_recall(scores, y_val, recall)
        for recall in (0.3, 0.5)
        for name, scores in (("cosine", cosines), ("scorer", probabilities),
                             ("gate_and_scorer", [p if g else -1.0 for g, p in
                                                  zip(in_gate, probabilities, strict=True)]))}
    defaults = AlignConfig()
    reasons: Counter[str] = Counter()
    for (a, b, label), row, p in zip(val, val_rows, probabilities, strict=True):
        if p >= scorer.threshold:
            reason = drop_reason(a, b, row, max_quote_share=defaults.max_quote_share,
                                 max_novel_share=defaults.max_novel_share,
                                 max_added_words=defaults.max_added_words,
                                 drop_mismatches=defaults.drop_mismatches)
            reasons[f"{reason or 'kept'}_{'paraphrase' if label else 'not_paraphrase'}"] += 1
    result["filters_on_pairs_the_scorer_keeps"] = dict(sorted(reasons.items()))
    return result


def near_verbatim_drops(rules: Sequence[tuple[int, float]]) -> dict[str, Any]:
    """Pairs of each split the near-verbatim check drops under each (floor, share) rule."""
    defaults = AlignConfig()
    result: dict[str, Any] = {}
    for split in ("train", "val"):
        rows = read_msrp(split)
        for floor, share in ((defaults.min_word_edits, defaults.min_edit_share), *rules):
            dropped = Counter()
            for label, _, _, a, b in rows:
                if near_verbatim(a, b, max_token_jaccard=defaults.max_token_jaccard,
                                 min_word_edits=floor, min_edit_share=share):
                    dropped["paraphrase" if label else "not_paraphrase"] += 1
                    if label and min(len(words(a)), len(words(b))) <= 15:
                        dropped["short_paraphrase"] += 1
            result[f"{split}_floor_{floor}_share_{share}"] = {"pairs": len(rows), **dropped}
    return result


def reference_rule(values: Sequence[int]) -> dict[str, Any]:
    """Precision and recall of the default criteria with each sparse_min_pn, per split."""
    defaults = AlignConfig()
    scorer = load_scorer(defaults.scorer_model)
    result: dict[str, Any] = {"criteria": {"min_cn": defaults.min_cn, "min_pn": defaults.min_pn,
                                           "alpha": defaults.alpha,
                                           "min_probability": defaults.min_probability,
                                           "scorer_version": scorer.version}}
    for split in ("train", "val"):
        pairs = msrp_pairs(split)
        labels = [y for *_, y in pairs]
        kept = [scorer.probability(row) >= defaults.min_probability
                for row in msrp_signals(split, pairs)]
        result[split] = {}
        for value in values:
            test = accepted(Constraints(min_cn=defaults.min_cn, min_pn=defaults.min_pn,
                                        alpha=defaults.alpha, sparse_min_pn=value), entity_keys)
            inside = [test(a, b) for a, b, _ in pairs]
            result[split][f"sparse_min_pn_{value}"] = {
                "gate": precision_recall(inside, labels),
                "gate_and_scorer": precision_recall(
                    [g and k for g, k in zip(inside, kept, strict=True)], labels)}
    return result


def retrieval(gate: Constraints, splits: Sequence[str],
              sparse_values: Sequence[int]) -> dict[str, Any]:
    """The aligner run over every sentence of the splits: at the defaults, and with the --gate
    criteria or (when given) at the defaults with each --sparse-min-pn; mined pairs against the labels
    (pairs MSRP does not label are counted, and a few shown to be read)."""
    rows = [row for split in splits for row in read_msrp(split)]
    texts = {}
    for _, id1, id2, s1, s2 in rows:
        texts[id1], texts[id2] = s1, s2
    settings, by_url = build_corpus(
        (f"msrp:{sid}", f"msrp-{sid}", text, None) for sid, text in texts.items())
    sentence = {url.removeprefix("msrp:"): s[0] for url, s in by_url.items() if len(s) == 1}
    text_of = {s.id: s.text for s in sentence.values()}
    labelled = {frozenset((sentence[i1].id, sentence[i2].id)): label
                for label, i1, i2, _, _ in rows if i1 in sentence and i2 in sentence}
    positives = sum(label for label, *_ in rows)
    found: dict[str, Any] = {"splits": list(splits), "sentences": len(texts)}
    criteria: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    if sparse_values:
        criteria += [(f"sparse_min_pn_{n}", {"sparse_min_pn": n}) for n in sparse_values]
    else:
        criteria.append(("gate", {"min_cn": gate.min_cn, "min_pn": gate.min_pn,
                                  "alpha": gate.alpha, "beta": 0.0}))
    for name, align in criteria:
        # MSRP's sentences come without articles or stories: the whole-window search
        run_settings = settings.model_copy(
            update={"align": settings.align.model_copy(update={**align, "within": "window"})})
        run = run_stage(run_settings, "align")
        mined = sorted(tuple(sorted((p.input_sentence_id, p.target_sentence_id)))
                       for p in store_of(settings).pairs(run["run_id"]))
        hits = [labelled[frozenset(key)] for key in mined if frozenset(key) in labelled]
        unlabelled = [key for key in mined if frozenset(key) not in labelled]
        found[name] = {
            "criteria": align or "defaults", "mined_pairs": len(mined),
            "mined_pairs_labelled_in_msrp": len(hits),
            "precision_among_labelled": round(sum(hits) / len(hits), 4) if hits else None,
            "recall_of_labelled_paraphrases": round(sum(hits) / positives, 4),
            "unlabelled_sample": [[text_of[a], text_of[b]] for a, b in unlabelled[:: max(
                1, len(unlabelled) // 10)][:10]],
            "counts": run}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = AlignConfig()
    parser.add_argument("--gate", type=float, nargs=3,
                        default=[defaults.min_cn, defaults.min_pn, defaults.alpha],
                        metavar=("MIN_CN", "MIN_PN", "ALPHA"),
                        help="Algorithm 1's criteria before the scorer [default: [align]'s]")
    parser.add_argument("--retrieval", action="store_true")
    parser.add_argument("--retrieval-splits", nargs="+", choices=["train", "val"],
                        default=["train", "val"], help="MSRP splits the retrieval indexes")
    parser.add_argument("--sparse-min-pn", type=int, nargs="+", default=[], metavar="N",
                        help="sparse_min_pn values to compare at the default criteria")
    parser.add_argument("--near-verbatim", type=float, nargs="+", default=[],
                        metavar="FLOOR SHARE", help="(min_word_edits, min_edit_share) pairs")
    args = parser.parse_args()
    gate = Constraints(min_cn=int(args.gate[0]), min_pn=int(args.gate[1]), alpha=args.gate[2],
                       sparse_min_pn=int(args.gate[1]))
    result = {"gate": {"min_cn": gate.min_cn, "min_pn": gate.min_pn, "alpha": gate.alpha},
              "classifier_on_val": classifier(gate)}
    if args.sparse_min_pn:
        result["reference_rule"] = reference_rule(args.sparse_min_pn)
    if args.near_verbatim:
        values = args.near_verbatim
        result["near_verbatim"] = near_verbatim_drops(
            [(int(values[k]), values[k + 1]) for k in range(0, len(values) - 1, 2)])
    if args.retrieval:
        result["retrieval"] = retrieval(gate, args.retrieval_splits, args.sparse_min_pn)
    report("msrp_quality", result)


if __name__ == "__main__":
    main()
