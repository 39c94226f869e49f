"""Main's old pair path (before the pair model) on the dev gold's check part: the figures
bench/pair_model_quality.py sets the pair model against.

    nice -n 10 .venv/bin/python bench/old_path_quality.py

Runs only at the commit it was added in (the old filters and binary scorer were removed in
the next one); its result, bench/results/old_path_quality.json, names the main commit the
old code came from (a copy is kept, tracked, in bench/baselines/). The same candidates as
pair_model_quality.py (every cross-article pair of a story's lead sentences, and of its
titles); each goes through the old run's steps with
[align]'s old defaults: near-verbatim and length-ratio drops, then drop_reason's filters,
the semantic check, and the binary scorer (aligner/models/pair_scorer.json) at
min_probability; a kept pair is ordered by Algorithm 2 (more proper nouns is the input).
The BM25 signal is the scorer's training one (an index over the part's own texts). A kept
pair is useful when its gold grade is >= 4, or 3 with the input being the covering side.
"""

from __future__ import annotations

from common import SEED_CACHE, SHARED_DATA, report

from parawire.aligner import labelled_signals, load_scorer, order_pair
from parawire.aligner.filters import drop_reason, near_verbatim
from parawire.config import AlignConfig, load_settings
from parawire.records import Direction
from parawire.roof.pair_gold import read_dev_gold
from parawire.roof.scorer_training import annotate_texts
from parawire.textnorm import length_ratio

MAIN_COMMIT = "3969aaad92fba84d9b157cc0280ace1e511cc3a9"


def main() -> None:
    config = AlignConfig()
    check = read_dev_gold(SHARED_DATA / "pairs-dev", "check")
    settings = load_settings(data_dir=SEED_CACHE.parent / "pair-model-data")
    sentences = annotate_texts(settings, (t for p in check for t in (p.text_a, p.text_b)), "en")
    pairs = [(sentences[p.text_a], sentences[p.text_b]) for p in check]
    rows = labelled_signals(pairs)
    scorer = load_scorer(config.scorer_model)
    drops: dict[str, int] = {}
    selected = right = 0
    useful = sum(p.grade >= 3 for p in check)
    for gold, (a, b), signals in zip(check, pairs, rows, strict=True):
        reason = None
        if near_verbatim(a.text, b.text, max_token_jaccard=config.max_token_jaccard,
                         min_word_edits=config.min_word_edits,
                         min_edit_share=config.min_edit_share):
            reason = "near_verbatim"
        elif length_ratio(a.text, b.text) < config.min_length_ratio:
            reason = "length_ratio"
        else:
            reason = drop_reason(a, b, signals, max_quote_share=config.max_quote_share,
                                 max_novel_share=config.max_novel_share,
                                 max_added_words=config.max_added_words,
                                 drop_mismatches=config.drop_mismatches)
        if reason is None and signals["cosine"] < config.min_semantic_similarity:
            reason = "semantic"
        if reason is None and scorer.probability(signals) < config.min_probability:
            reason = "below_probability"
        if reason is not None:
            drops[reason] = drops.get(reason, 0) + 1
            continue
        selected += 1
        input_is_a = order_pair(a, b)[0] is a
        oriented = input_is_a == (gold.direction == Direction.A_COVERS_B)
        right += gold.grade >= 4 or (gold.grade == 3 and oriented)
    report("old_path_quality", {
        "code_from_main_commit": MAIN_COMMIT, "scorer": scorer.version,
        "min_probability": config.min_probability,
        "dev_gold_check": {"candidates": len(check), "useful_gold": useful, "selected": selected,
                           "precision": round(right / selected, 4) if selected else None,
                           "recall": round(right / useful, 4) if useful else None,
                           "drops": drops}})


if __name__ == "__main__":
    main()
