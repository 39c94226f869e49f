"""Alignment runs: reference selection, per-batch HCSSS search, pair storing, closing."""

from __future__ import annotations

from collections import Counter

from parawire.aligner.candidates import CANDIDATE_SOURCES, Candidate, SearchContext
from parawire.aligner.constraints import is_paraphrase, is_reference
from parawire.aligner.dataset import text_pair_key
from parawire.aligner.dense import DenseSource
from parawire.aligner.filters import drop_reason, near_verbatim
from parawire.aligner.pairs import make_pair
from parawire.aligner.params import AlignParams
from parawire.aligner.scorer import load_scorer
from parawire.aligner.semantic import cosine_similarities
from parawire.aligner.signals import pair_signals
from parawire.indexer import SentenceIndex
from parawire.nlp import VectorFiles
from parawire.records import AlignmentRun, Pair
from parawire.store import Store
from parawire.textnorm import length_ratio

SOURCES = {"hcsss": ("hcsss",), "dense": (DenseSource.name,), "both": ("hcsss", "dense")}


def select_references(store: Store, params: AlignParams) -> list[int]:
    """Ids of the sentences searched within the run's scope, in id order: HCSSS's reference
    set RS (sparse references included); with the dense source, every sentence of the scope
    (the dense source itself skips those under `dense_min_words` words)."""
    c = params.constraints
    every = params.method != "hcsss"
    return [
        s.id
        for batch in store.sentence_nouns(language=params.language, topic=params.topic,
                                          since=params.since, until=params.until)
        for s in batch
        if every or is_reference(frozenset(s.entity_keys), frozenset(s.common_nouns), c)
    ]


def merged_candidates(references: list, context: SearchContext) -> list[Candidate]:
    """Every source's candidates of the run's method, a pair found twice kept once (its
    features united, its source named "hcsss+dense"), each with Algorithm 1's counts as
    features whichever source found it."""
    merged: dict[tuple[int | None, int | None], Candidate] = {}
    for name in SOURCES[context.params.method]:
        for candidate in CANDIDATE_SOURCES[name].candidates(references, context):
            key = (candidate.reference.id, candidate.sentence.id)
            if key in merged:
                merged[key].features.update(candidate.features)
                merged[key].source += "+" + candidate.source
            else:
                merged[key] = candidate
    c = context.params.constraints
    for candidate in merged.values():
        reference, sentence = candidate.reference, candidate.sentence
        candidate.features.update(
            shared_pn=len(reference.pn & sentence.pn), shared_cn=len(reference.cn & sentence.cn),
            hcsss_accepts=float(is_paraphrase(reference.pn, reference.cn, sentence.pn,
                                              sentence.cn, c)))
    return list(merged.values())


def start_run(store: Store, params: AlignParams) -> tuple[AlignmentRun, list[int]]:
    """Open (or re-open) the run for these parameters; returns it and its pending references."""
    run = store.find_or_start_alignment_run(params.run_key(), params.to_json())
    assert run.id is not None
    done = store.done_references(run.id)
    selected = select_references(store, params)
    store.record_references_selected(run.id, len(selected))
    pending = [ref for ref in selected if ref not in done]
    return run, pending


def align_batch(store: Store, index: SentenceIndex, run_id: int, params: AlignParams,
                reference_ids: list[int], vectors: VectorFiles | None = None) -> dict[str, int]:
    """Search every reference of a batch, store its pairs, mark it done; returns counts."""
    counts: Counter[str] = Counter()
    references = store.sentences_by_id(reference_ids)
    partners = store.story_partners(reference_ids) if params.within == "story" else None
    context = SearchContext(store, index, params, counts, partners, vectors=vectors)
    found = merged_candidates([references[ref] for ref in reference_ids if ref in references],
                              context)
    syndicated = store.syndicated_articles(
        s.article_id for c in found for s in (c.reference, c.sentence))
    kept: list[Candidate] = []
    for candidate in found:
        reference, sentence = candidate.reference, candidate.sentence
        if near_verbatim(reference.text, sentence.text,
                         max_token_jaccard=params.max_token_jaccard,
                         min_word_edits=params.min_word_edits,
                         min_edit_share=params.min_edit_share):
            # a syndicated copy's sentence is dropped only where its text is near-verbatim
            copied = reference.article_id in syndicated or sentence.article_id in syndicated
            counts["syndicated" if copied else "near_verbatim"] += 1
        elif length_ratio(reference.text, sentence.text) < params.min_length_ratio:
            counts["length_ratio"] += 1
        else:
            kept.append(candidate)
    batch_pairs = scored_pairs(run_id, kept, params, counts)
    counts["pairs_built"] += len(batch_pairs)
    store.record_references(run_id, reference_ids, batch_pairs, dict(counts))
    return dict(counts)


def scored_pairs(run_id: int, kept: list[Candidate], params: AlignParams,
                 counts: Counter[str]) -> list[Pair]:
    """The candidates' pairs that pass the filters, then the semantic check, and that the
    pair scorer gives at least `min_probability`, each with its probability and signals; the
    dropped ones are counted by reason. The filters read no embedding, so only the pairs
    they keep are embedded (the costliest step of a batch)."""
    scorer = load_scorer(params.scorer_model)
    filtered: list[tuple[Candidate, dict[str, float]]] = []
    for k in kept:
        signals = pair_signals(k.reference, k.sentence, k.features.get("bm25", 0.0), cosine=0.0)
        reason = drop_reason(k.reference, k.sentence, signals,
                             max_quote_share=params.max_quote_share,
                             max_novel_share=params.max_novel_share,
                             max_added_words=params.max_added_words,
                             drop_mismatches=params.drop_mismatches)
        if reason is not None:
            counts[reason] += 1
        else:
            filtered.append((k, signals))
    cosines = cosine_similarities([(k.reference.text, k.sentence.text) for k, _ in filtered])
    pairs: list[Pair] = []
    for (k, signals), cosine in zip(filtered, cosines, strict=True):
        if cosine < params.min_semantic_similarity:
            counts["semantic"] += 1
            continue
        signals["cosine"] = cosine
        probability = scorer.probability(signals)
        if probability < params.min_probability:
            counts["below_probability"] += 1
            continue
        pairs.append(make_pair(run_id, k, probability, signals))
    return pairs


def finish_run(store: Store, run_id: int) -> dict[str, int]:
    """Close a run with the counts of what is stored: every pass's batch counts summed,
    its pairs (and how many distinct text pairs they hold: copies of a wire story repeat
    one) and its references done."""
    run = store.alignment_run(run_id)
    assert run is not None
    totals = store.stored_batch_counts(run_id)
    if "references_selected" in run.counts:
        totals["references_selected"] = run.counts["references_selected"]
    totals["pairs"] = store.count_pairs(run_id)
    totals["distinct_text_pairs"] = len({text_pair_key(row) for row in store.pair_rows(run_id)})
    totals["references_done"] = store.count_done_references(run_id)
    totals["symmetric_duplicates"] = max(0, totals["pairs_built"] - totals["pairs"])
    store.finish_alignment_run(run_id, dict(totals))
    return dict(totals)
