"""Alignment speed at scale: tantivy-backed HCSSS queries against brute-force Algorithm 1.

    .venv/bin/python bench/align_speed.py [--sizes 10000 100000 1000000] [--brute-sample 200]

Corpora are news_corpus() samples of real annotated ECB+ sentences (bench/common.py):
events reported 1-6 times on nearby days, each report keeping the proper nouns and each
common noun with probability 0.85 (the controlled overlap), about 5,000 sentences a day.
For each size it prints sentences/s indexed, query latency percentiles, and references/s
with the total query time. At the smallest size a sample of references is also checked by
brute force over all sentences, in the same process, for the speed ratio and to confirm
both give the same candidates.
Results go to bench/results/align_speed.json.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import KEEP_COMMON_NOUN, ecbplus_sentences, news_corpus, report

from parawire.aligner import AlignParams, brute_force_candidates, build_query, is_reference
from parawire.indexer import TantivyIndex
from parawire.records import Sentence


def measure(size: int, seed: int, seeds: list[Sentence], params: AlignParams,
            brute_sample: int) -> dict:
    """Index one corpus, query every reference; brute force on a sample of references."""
    sentences = news_corpus(size, seed, seeds)
    references = [s for s in sentences if is_reference(s.pn, s.cn, params.constraints)]
    index = TantivyIndex(None)
    started = time.perf_counter()
    index.add(sentences)
    index.commit()
    index_seconds = time.perf_counter() - started

    latencies, engine_pairs = [], set()
    started = time.perf_counter()
    for reference in references:
        query = build_query(reference, params)
        assert query is not None
        t0 = time.perf_counter()
        hits = index.search(query)
        latencies.append(time.perf_counter() - t0)
        engine_pairs.update((reference.id, hit.sentence_id) for hit in hits)
    engine_seconds = time.perf_counter() - started
    latencies.sort()
    result = {
        "sentences": size,
        "references": len(references),
        "candidate_pairs": len(engine_pairs),
        "index_sentences_per_s": round(size / index_seconds),
        "query_ms_p50": round(1000 * statistics.median(latencies), 3),
        "query_ms_p95": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 3),
        "engine_references_per_s": round(len(references) / engine_seconds, 1),
        "engine_total_seconds": round(engine_seconds, 2),
    }
    if brute_sample:
        sample = random.Random(seed).sample(references, min(brute_sample, len(references)))
        sample_ids = {s.id for s in sample}
        started = time.perf_counter()
        oracle = brute_force_candidates(sample + [s for s in sentences if s.id not in sample_ids],
                                        params, references=sample)
        brute_seconds = time.perf_counter() - started
        result["brute_force_references_per_s"] = round(len(sample) / brute_seconds, 2)
        result["speedup_vs_brute_force"] = round(
            result["engine_references_per_s"] / result["brute_force_references_per_s"], 1)
        result["engine_equals_brute_force_on_sample"] = oracle == {
            pair for pair in engine_pairs if pair[0] in sample_ids}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--brute-sample", type=int, default=200,
                        help="references checked by brute force at the smallest size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    params = AlignParams(max_hits=100000)
    seeds = ecbplus_sentences()
    rows = [measure(size, args.seed, seeds, params, args.brute_sample if i == 0 else 0)
            for i, size in enumerate(sorted(args.sizes))]
    report("align_speed", {"seed_sentences": len(seeds), "keep_common_noun": KEEP_COMMON_NOUN,
                           "sizes": rows})


if __name__ == "__main__":
    main()
