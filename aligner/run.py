"""Alignment runs: reference selection, per-batch HCSSS search, pair storing, closing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from parawire.aligner.constraints import is_reference
from parawire.aligner.pairs import make_pair
from parawire.aligner.params import AlignParams
from parawire.aligner.query import build_query
from parawire.aligner.scoring import above_beta, normalized
from parawire.aligner.semantic import cosine_similarities
from parawire.indexer import SentenceIndex
from parawire.records import AlignmentRun, Sentence
from parawire.store import Store
from parawire.textnorm import length_ratio, token_jaccard


def in_scope(sentence: Sentence, params: AlignParams) -> bool:
    """Whether a sentence falls in the run's language, topic and date scope."""
    if params.language and sentence.language != params.language:
        return False
    if params.topic and sentence.topic != params.topic:
        return False
    if params.since or params.until:
        if sentence.published is None:
            return False
        if params.since and sentence.published < params.since:
            return False
        if params.until and sentence.published > params.until:
            return False
    return True


def select_references(store: Store, params: AlignParams) -> list[int]:
    """Ids of the reference set RS within the run's scope, in id order."""
    c = params.constraints
    return [
        s.id
        for batch in store.iter_sentences(language=params.language)
        for s in batch
        if s.id is not None and in_scope(s, params) and is_reference(s.pn, s.cn, c)
    ]


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
                reference_ids: list[int]) -> dict[str, int]:
    """Search every reference of a batch, store its pairs, mark it done; returns counts."""
    counts: Counter[str] = Counter()
    references = store.sentences_by_id(reference_ids)
    found: list[tuple[Sentence, int, float, float]] = []
    for ref_id in reference_ids:
        reference = references.get(ref_id)
        query = build_query(reference, params) if reference else None
        if reference is None or query is None:
            continue
        counts["references"] += 1
        hits = index.search(query)
        counts["candidates"] += len(hits)
        self_score = 0.0
        if params.normalize == "self":
            self_score = index.score_of(ref_id, query.text_terms)
        kept = above_beta(normalized(hits, params.normalize, self_score), params.beta)
        counts["above_beta"] += len(kept)
        found.extend((reference, hit.sentence_id, score, hit.score) for hit, score in kept)
    candidates = store.sentences_by_id(sentence_id for _, sentence_id, _, _ in found)
    syndicated = store.syndicated_articles(
        s.article_id for s in (*references.values(), *candidates.values()))
    kept: list[tuple[Sentence, Sentence, float, float]] = []
    for reference, sentence_id, score, raw in found:
        candidate = candidates[sentence_id]
        if reference.article_id in syndicated or candidate.article_id in syndicated:
            counts["syndicated"] += 1
        elif token_jaccard(reference.text, candidate.text) >= params.max_token_jaccard:
            counts["near_verbatim"] += 1
        elif length_ratio(reference.text, candidate.text) < params.min_length_ratio:
            counts["length_ratio"] += 1
        else:
            kept.append((reference, candidate, score, raw))
    if params.min_semantic_similarity > 0:
        similarities = cosine_similarities([(r.text, c.text) for r, c, _, _ in kept])
        counts["semantic"] += sum(s < params.min_semantic_similarity for s in similarities)
        kept = [k for k, s in zip(kept, similarities, strict=True)
                if s >= params.min_semantic_similarity]
    batch_pairs = [make_pair(run_id, r, c, score, raw) for r, c, score, raw in kept]
    counts["pairs_built"] += len(batch_pairs)
    store.record_references(run_id, reference_ids, batch_pairs)
    return dict(counts)


def finish_run(store: Store, run_id: int, batch_counts: Iterable[dict[str, int]]) -> dict[str, int]:
    """Close a run: add this pass's counts to earlier passes' and count what is stored."""
    run = store.alignment_run(run_id)
    assert run is not None
    totals: Counter[str] = Counter(run.counts)
    for counts in batch_counts:
        totals.update(counts)
    totals["pairs"] = len(store.pairs(run_id))
    totals["references_done"] = len(store.done_references(run_id))
    totals["symmetric_duplicates"] = max(0, totals["pairs_built"] - totals["pairs"])
    store.finish_alignment_run(run_id, dict(totals))
    return dict(totals)
