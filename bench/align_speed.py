"""Alignment speed at scale: tantivy-backed HCSSS queries against brute-force Algorithm 1.

    .venv/bin/python bench/align_speed.py [--sizes 10000 100000 1000000] [--brute-sample 200]

For each corpus size (synthetic annotated sentences: events that share names and most
nouns, plus Zipf noise), prints sentences/s indexed, query latency percentiles, and
references/s with the total query time. At the smallest size a sample of references is
also checked by brute force over all sentences, in the same process, for the speed ratio
and to confirm both give the same candidates. Results go to bench/results/align_speed.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from datetime import date, timedelta
from pathlib import Path

from aligner import AlignParams, brute_force_candidates, build_query, is_reference
from indexer import TantivyIndex
from parawire.records import Sentence


class Zipf:
    """Draws distinct words, frequent ones far more likely (weights 1/rank)."""

    def __init__(self, vocabulary: list[str]) -> None:
        self.vocabulary = vocabulary
        self.cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(vocabulary))))

    def pick(self, rng: random.Random, k: int) -> list[str]:
        chosen: set[str] = set()
        while len(chosen) < k:
            chosen.update(rng.choices(self.vocabulary, cum_weights=self.cumulative, k=k - len(chosen)))
        return sorted(chosen)


def corpus(size: int, seed: int) -> list[Sentence]:
    """Synthetic annotated sentences over 30 days: events of 1-6 sentences that share
    their names and most of their nouns, plus Zipf-distributed noise words."""
    rng = random.Random(seed)
    names = Zipf([f"name{i}" for i in range(max(800, size // 10))])
    nouns = Zipf([f"noun{i}" for i in range(max(2000, size // 4))])
    start = date(2026, 1, 1)
    sentences: list[Sentence] = []
    while len(sentences) < size:
        base_pn = names.pick(rng, 3)
        base_cn = nouns.pick(rng, 4)
        day = start + timedelta(days=rng.randint(0, 27))
        for _ in range(rng.randint(1, 6)):
            sid = len(sentences) + 1
            cn = [n for n in base_cn if rng.random() > 0.15] + nouns.pick(rng, rng.randint(0, 2))
            pn = base_pn + names.pick(rng, rng.randint(0, 1))
            sentences.append(Sentence(
                id=sid, article_id=sid, position=0, text=" ".join(pn + cn),
                proper_nouns=sorted(set(pn)), common_nouns=sorted(set(cn)), language="en",
                topic="news", published=day + timedelta(days=rng.randint(0, 2)),
                source=f"outlet{sid % 5}",
            ))
    return sentences[:size]


def measure(size: int, seed: int, params: AlignParams, brute_sample: int) -> dict:
    """Index one corpus, query every reference; brute force on a sample of references."""
    sentences = corpus(size, seed)
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
    rows = [measure(size, args.seed, params, args.brute_sample if i == 0 else 0)
            for i, size in enumerate(sorted(args.sizes))]
    out = Path(__file__).with_name("results")
    out.mkdir(exist_ok=True)
    (out / "align_speed.json").write_text(json.dumps(rows, indent=2) + "\n")
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
