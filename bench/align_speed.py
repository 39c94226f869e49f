"""Alignment speed at scale: tantivy-backed HCSSS queries against brute-force Algorithm 1.

    .venv/bin/python bench/align_speed.py [--sizes 10000 100000 1000000] [--brute-sample 200]

Corpora are built from real annotated sentences: every ECB+ article is annotated once (the
seeds are cached under bench/.cache/), then each corpus samples seed sentences as "events"
reported 1-6 times over consecutive days, each report keeping the seed's proper nouns and
each of its common nouns with probability 0.85 (the controlled overlap), plus up to two
common nouns drawn from the real noun distribution; the report's text is the seed's
without its dropped nouns and with the added ones. Days span the corpus at about
5,000 sentences a day, as a daily crawl would. For each size it prints sentences/s
indexed, query latency percentiles, and references/s with the total query time. At the
smallest size a sample of references is also checked by brute force over all sentences, in
the same process, for the speed ratio and to confirm both give the same candidates.
Results go to bench/results/align_speed.json.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from common import SHARED_DATA, build_corpus, report

from aligner import AlignParams, brute_force_candidates, build_query, is_reference
from indexer import TantivyIndex
from parawire.records import Sentence

SEED_CACHE = Path(__file__).with_name(".cache") / "ecbplus_seeds.json"
KEEP_COMMON_NOUN = 0.85
SENTENCES_PER_DAY = 5_000


@dataclass(frozen=True, slots=True)
class Seed:
    """A real sentence's text with its proper and common nouns."""

    text: str
    proper_nouns: tuple[str, ...]
    common_nouns: tuple[str, ...]


def real_seeds() -> list[Seed]:
    """Every annotated ECB+ sentence that has a noun, annotating once and caching."""
    if not SEED_CACHE.is_file():
        articles = [json.loads(line)
                    for line in (SHARED_DATA / "ecbplus" / "articles.jsonl").open()]
        _, by_url = build_corpus((f"ecb:{a['id']}", "ecb", f"{a['title']}\n{a['text']}", None)
                                 for a in articles)
        rows = [[s.text, s.proper_nouns, s.common_nouns]
                for sentences in by_url.values() for s in sentences
                if s.proper_nouns or s.common_nouns]
        SEED_CACHE.parent.mkdir(exist_ok=True)
        SEED_CACHE.write_text(json.dumps(rows))
    return [Seed(text, tuple(pn), tuple(cn)) for text, pn, cn in json.loads(SEED_CACHE.read_text())]


def report_text(event: Seed, kept: set[str], added: set[str]) -> str:
    """The seed's text without the common nouns this report dropped, with the added ones
    after it: reports that differ in nouns differ in words (identical ones are verbatim
    copies, which the aligner excludes)."""
    dropped = set(event.common_nouns) - kept
    words = [w for w in event.text.split() if w.casefold().strip(".,;:'\"") not in dropped]
    return " ".join(words + sorted(added))


def corpus(size: int, seed: int, seeds: list[Seed]) -> list[Sentence]:
    """`size` annotated sentences sampled from real seeds as events reported several times."""
    rng = random.Random(seed)
    noun_pool = [noun for s in seeds for noun in s.common_nouns]
    days = max(30, size // SENTENCES_PER_DAY)
    start = date(2026, 1, 1)
    sentences: list[Sentence] = []
    while len(sentences) < size:
        event = rng.choice(seeds)
        day = start + timedelta(days=rng.randrange(days))
        for _ in range(rng.randint(1, 6)):
            sid = len(sentences) + 1
            kept = {n for n in event.common_nouns if rng.random() < KEEP_COMMON_NOUN}
            added = set(rng.choices(noun_pool, k=rng.randint(0, 2))) - kept
            sentences.append(Sentence(
                id=sid, article_id=sid, position=0, text=report_text(event, kept, added),
                proper_nouns=sorted(event.proper_nouns), common_nouns=sorted(kept | added),
                language="en", topic="news", published=day + timedelta(days=rng.randint(0, 2)),
                source=f"outlet{sid % 5}",
            ))
    return sentences[:size]


def measure(size: int, seed: int, seeds: list[Seed], params: AlignParams,
            brute_sample: int) -> dict:
    """Index one corpus, query every reference; brute force on a sample of references."""
    sentences = corpus(size, seed, seeds)
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
    seeds = real_seeds()
    rows = [measure(size, args.seed, seeds, params, args.brute_sample if i == 0 else 0)
            for i, size in enumerate(sorted(args.sizes))]
    report("align_speed", {"seed_sentences": len(seeds), "keep_common_noun": KEEP_COMMON_NOUN,
                           "sizes": rows})


if __name__ == "__main__":
    main()
