"""Index speed on both backends: sentences/s indexed and HCSSS query latency.

    .venv/bin/python bench/index_speed.py [--tantivy-size 100000] [--es-size 10000] [--queries 2000]

Corpora are news_corpus() samples of real annotated ECB+ sentences (bench/common.py):
events reported several times on nearby days, so that HCSSS queries find candidates.
tantivy runs in memory, in process. The Elasticsearch backend runs against osmem-server,
an in-memory server speaking the Elasticsearch API, started on a free loopback port;
being pure Python it is far slower than a real cluster, so it gets a smaller corpus by
default. Indexing time includes the final commit (refresh); each query is the reference's
HCSSS query with the paper's defaults (min_CN = min_PN = 3, alpha = 0.7, +-3 days), over a
sample of references. For tantivy, which runs in this process, CPU-time figures (all of
its threads) are kept beside the wall-clock ones: on a shared machine they are the steadier
measure. Results go to bench/results/index_speed.json.
"""

from __future__ import annotations

import argparse
import random
import time
import uuid

from common import ecbplus_sentences, news_corpus, report

from parawire.aligner import AlignParams, build_query, is_reference
from parawire.indexer import ElasticsearchIndex, SentenceIndex, TantivyIndex
from parawire.records import Sentence


def _percentile(values: list[float], share: float) -> float:
    return round(1000 * sorted(values)[int(share * (len(values) - 1))], 3)


def measure(index: SentenceIndex, sentences: list[Sentence], queries: int, seed: int,
            in_process: bool) -> dict:
    """Index the sentences, then time the HCSSS queries of a sample of references."""
    started, cpu = time.perf_counter(), time.process_time()
    index.add(sentences)
    index.commit()
    index_seconds, index_cpu = time.perf_counter() - started, time.process_time() - cpu
    params = AlignParams()
    references = [s for s in sentences if is_reference(s.pn, s.cn, params.constraints)]
    sample = random.Random(seed).sample(references, min(queries, len(references)))
    latencies, cpu_latencies, hits = [], [], 0
    for reference in sample:
        query = build_query(reference, params)
        assert query is not None
        t0, c0 = time.perf_counter(), time.process_time()
        hits += len(index.search(query))
        latencies.append(time.perf_counter() - t0)
        cpu_latencies.append(time.process_time() - c0)
    result = {
        "sentences": len(sentences),
        "indexed_count": index.count(),
        "index_sentences_per_s": round(len(sentences) / index_seconds),
        "references": len(references),
        "queries": len(sample),
        "mean_hits_per_query": round(hits / max(1, len(sample)), 2),
        "query_ms_p50": _percentile(latencies, 0.5),
        "query_ms_p95": _percentile(latencies, 0.95),
    }
    if in_process:
        result["index_sentences_per_cpu_s"] = round(len(sentences) / index_cpu)
        result["query_cpu_ms_p50"] = _percentile(cpu_latencies, 0.5)
        result["query_cpu_ms_p95"] = _percentile(cpu_latencies, 0.95)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tantivy-size", type=int, default=100_000)
    parser.add_argument("--es-size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--es-queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = ecbplus_sentences()
    result = {"seed_sentences": len(seeds)}
    result["tantivy"] = measure(TantivyIndex(None), news_corpus(args.tantivy_size, args.seed, seeds),
                                args.queries, args.seed, in_process=True)
    if args.es_size:
        from osmem_server import OsmemServer

        with OsmemServer.start(addr="127.0.0.1:0", japanese=False) as server:
            index = ElasticsearchIndex(server.url, prefix=f"bench{uuid.uuid4().hex[:8]}",
                                       compatible_media_types=False, request_timeout=600)
            result["elasticsearch_osmem"] = measure(
                index, news_corpus(args.es_size, args.seed, seeds), args.es_queries, args.seed,
                in_process=False)
    report("index_speed", result)


if __name__ == "__main__":
    main()
