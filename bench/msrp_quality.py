"""Aligner quality on MSRP (train + validation): labelled news sentence pairs.

    .venv/bin/python bench/msrp_quality.py [--min-pn 3 --min-cn 3 --beta 0.7
                                            --semantic 0.7 0.8 0.85 0.9]

1. Classifier: a labelled pair is predicted a paraphrase when one sentence is a reference
   and the other passes Algorithm 1 against it; "+beta" also needs the candidate's BM25
   score for the reference's query, over the reference's score against itself, to be at
   least beta; "+semantic" also needs the USE cosine to reach each --semantic threshold.
2. Retrieval: every MSRP sentence is indexed and the aligner runs over all of them, once
   without and once with the semantic check at each threshold; among the mined pairs
   that are labelled in MSRP, how many are labelled paraphrases, and how many of all
   labelled paraphrases were retrieved.
"""

from __future__ import annotations

import argparse
import csv

from common import SHARED_DATA, build_corpus, report

from parawire.aligner import AlignParams, build_query, is_paraphrase, is_reference
from parawire.aligner.semantic import cosine_similarities
from parawire.indexer import open_index
from parawire.roof import pipeline
from parawire.store import store_of


def read_msrp() -> list[tuple[int, str, str, str, str]]:
    rows = []
    for name in ("msr-para-train.tsv", "msr-para-val.tsv"):
        with (SHARED_DATA / "msrp" / name).open(encoding="utf-8-sig") as handle:
            reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
            next(reader)
            rows += [(int(r[0]), r[1], r[2], r[3], r[4]) for r in reader if len(r) == 5]
    return rows


def precision_recall(predicted: list[bool], labels: list[int]) -> dict[str, float]:
    tp = sum(p and y == 1 for p, y in zip(predicted, labels, strict=True))
    fp = sum(p and y == 0 for p, y in zip(predicted, labels, strict=True))
    positives = sum(labels)
    return {"predicted": tp + fp, "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "recall": round(tp / positives, 4)}


def retrieved(settings, params: AlignParams, labelled: dict[frozenset[int], int],
              positives: int) -> dict[str, float | int | None]:
    """Run the aligner over the indexed MSRP sentences; score its pairs against the labels."""
    run = pipeline.align(settings, params)
    mined = {frozenset((p.input_sentence_id, p.target_sentence_id))
             for p in store_of(settings).pairs(run["run_id"])}
    hits = [labelled[key] for key in mined if key in labelled]
    return {
        "references": run.get("references_done", 0),
        "mined_pairs": run.get("pairs", 0),
        "mined_pairs_labelled_in_msrp": len(hits),
        "precision_among_labelled": round(sum(hits) / len(hits), 4) if hits else None,
        "labelled_paraphrases_retrieved": sum(hits),
        "recall_of_labelled_paraphrases": round(sum(hits) / positives, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-pn", type=int, default=3)
    parser.add_argument("--min-cn", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=0.7)
    parser.add_argument("--beta", type=float, default=0.7)
    parser.add_argument("--semantic", type=float, nargs="+", default=[0.7, 0.8, 0.85, 0.9])
    args = parser.parse_args()
    rows = read_msrp()
    texts = {}
    for _, id1, id2, s1, s2 in rows:
        texts[id1], texts[id2] = s1, s2
    align = {"min_pn": args.min_pn, "min_cn": args.min_cn, "alpha": args.alpha,
             "beta": args.beta}
    settings, by_url = build_corpus(
        ((f"msrp:{sid}", f"msrp-{sid}", text, None) for sid, text in texts.items()),
        align=align,
    )
    sentence = {url.removeprefix("msrp:"): s[0] for url, s in by_url.items() if len(s) == 1}
    params = AlignParams.from_config(settings.align, max_hits=100000)
    index = open_index(settings)

    labels, alg1, alg1_beta, candidates = [], [], [], []
    for label, id1, id2, _, _ in rows:
        a, b = sentence.get(id1), sentence.get(id2)
        labels.append(label)
        accepted, passes_beta = False, False
        if a is not None and b is not None:
            for ref, cand in ((a, b), (b, a)):
                if is_reference(ref.pn, ref.cn, params.constraints) and is_paraphrase(
                        ref.pn, ref.cn, cand.pn, cand.cn, params.constraints):
                    accepted = True
                    query = build_query(ref, params)
                    own = index.score_of(ref.id, query.text_terms)
                    other = index.score_of(cand.id, query.text_terms)
                    passes_beta = passes_beta or (own > 0 and other / own >= params.beta)
        alg1.append(accepted)
        alg1_beta.append(accepted and passes_beta)
        candidates.append((a.text if a else "", b.text if b else ""))
    similarity = cosine_similarities([c for c, keep in zip(candidates, alg1_beta, strict=True)
                                      if keep])
    semantic = {}
    for threshold in args.semantic:
        scores = iter(similarity)
        semantic[f"algorithm_1_beta_self_semantic_{threshold}"] = precision_recall(
            [keep and next(scores) >= threshold for keep in alg1_beta], labels)

    labelled = {}
    for label, id1, id2, _, _ in rows:
        if id1 in sentence and id2 in sentence:
            labelled[frozenset((sentence[id1].id, sentence[id2].id))] = label
    retrieval = {"without_semantic": retrieved(settings, params, labelled, sum(labels))}
    for threshold in args.semantic:
        with_check = params.model_copy(update={"min_semantic_similarity": threshold})
        retrieval[f"semantic_{threshold}"] = retrieved(settings, with_check, labelled,
                                                       sum(labels))
    report("msrp_quality", {
        "pairs": len(rows),
        "labelled_paraphrases": sum(labels),
        "parameters": {**align, "semantic": args.semantic},
        "classifier": {
            "algorithm_1": precision_recall(alg1, labels),
            "algorithm_1_beta_self": precision_recall(alg1_beta, labels),
            **semantic,
        },
        "sentences_indexed": index.count(),
        "retrieval": retrieval,
    })


if __name__ == "__main__":
    main()
