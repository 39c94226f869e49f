"""Alignment runs: reference selection, per-batch candidate search, grading by the pair
model, pair storing, closing."""

from __future__ import annotations

from collections import Counter

from parawire.aligner.batch_features import EmbedderOf
from parawire.aligner.candidates import CANDIDATE_SOURCES, Candidate, SearchContext, VectorsOf
from parawire.aligner.constraints import is_paraphrase, is_reference
from parawire.aligner.dataset import text_pair_key
from parawire.aligner.dense import DenseSource
from parawire.aligner.filters import exact_rule
from parawire.aligner.pair_model import FeaturePairModel, load_pair_model
from parawire.aligner.pairs import graded_pair
from parawire.aligner.params import AlignParams
from parawire.aligner.title_source import StoryTitlesSource
from parawire.indexer import SentenceIndex
from parawire.records import AlignmentRun, Pair
from parawire.store import Store

# The candidate sources of each align.method; within stories every method pairs titles with
# the titles source.
SOURCES = {"hcsss": ("hcsss", StoryTitlesSource.name),
           "dense": (DenseSource.name, StoryTitlesSource.name),
           "both": ("hcsss", DenseSource.name, StoryTitlesSource.name)}


def select_references(store: Store, params: AlignParams) -> list[int]:
    """Ids of the sentences searched within the run's scope, in id order: HCSSS's reference
    set RS (sparse references included); with the dense source, every sentence of the scope
    (the dense source itself skips those that cannot pair: parawire/pairable.py); and,
    within stories, every title (the titles source's references)."""
    c = params.constraints
    every, titles = params.method != "hcsss", params.within == "story"
    return [
        s.id
        for batch in store.sentence_nouns(language=params.language, topic=params.topic,
                                          since=params.since, until=params.until)
        for s in batch
        if (titles if s.is_title else
            every or is_reference(frozenset(s.entity_keys), frozenset(s.common_nouns), c))
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
                reference_ids: list[int], embedder_of: EmbedderOf,
                vectors: VectorsOf | None = None) -> dict[str, int]:
    """Search every reference of a batch (with the run's candidate sources; `vectors`, each
    language's, for the dense one), grade its candidates, store the pairs graded at least
    `min_stored_grade`, mark the references done; returns counts (drops by reason, stored
    pairs by grade)."""
    counts: Counter[str] = Counter()
    references = store.sentences_by_id(reference_ids)
    partners = store.story_partners(reference_ids) if params.within == "story" else None
    context = SearchContext(store, index, params, counts, partners, vectors=vectors)
    found = merged_candidates([references[ref] for ref in reference_ids if ref in references],
                              context)
    kept: list[Candidate] = []
    for candidate in found:
        reason = exact_rule(candidate.reference, candidate.sentence, params.max_copy_edits)
        if reason is not None:
            counts[reason] += 1
        else:
            kept.append(candidate)
    batch_pairs = graded_pairs(run_id, kept, params, counts, embedder_of)
    counts["pairs_built"] += len(batch_pairs)
    store.record_references(run_id, reference_ids, batch_pairs, dict(counts))
    return dict(counts)


def graded_pairs(run_id: int, kept: list[Candidate], params: AlignParams,
                 counts: Counter[str], embedder_of: EmbedderOf) -> list[Pair]:
    """The candidates graded by the pair model (each counted by grade), those below
    `min_stored_grade` dropped, then those whose sentence cosine (the language's embedder)
    is below `min_semantic_similarity`; the rest oriented."""
    model = FeaturePairModel(load_pair_model(params.pair_model), embedder_of)
    gradings = model.grade(kept)
    pairs: list[Pair] = []
    for candidate, grading, features in zip(kept, gradings, model.last_features, strict=True):
        counts[f"grade_{grading.grade}"] += 1
        if grading.grade < params.min_stored_grade:
            counts["below_grade"] += 1
            continue
        if features["cosine"] < params.min_semantic_similarity:
            counts["semantic"] += 1
            continue
        pairs.append(graded_pair(run_id, candidate, grading, features))
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
