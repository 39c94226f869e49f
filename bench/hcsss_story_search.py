"""HCSSS within stories on a real store and index: the engine searching only a reference's
story partners (`among_ids`, what the aligner does) against a search of the whole window
whose hits are then kept among the partners (what it did before), in the same process.

    .venv/bin/python bench/hcsss_story_search.py --data-dir /work/archive28/data --queries 300

Reports ms per query for each, their ratio, and whether both kept the same hits (they must,
except where the window search filled max_hits and lost partners: counted apart).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from pathlib import Path

from common import report

from parawire.aligner import build_query
from parawire.aligner.params import AlignParams
from parawire.config import load_settings
from parawire.indexer import open_index
from parawire.store import store_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings = load_settings(data_dir=args.data_dir)
    store, index = store_of(settings), open_index(settings)
    params = AlignParams.from_config(settings.align)
    top = index.max_sentence_id()
    drawn = random.Random(args.seed).sample(range(1, top + 1), min(top, 20 * args.queries))
    partners = store.story_partners(drawn)
    references = store.sentences_by_id(i for i in drawn if partners.get(i, (0, []))[1])
    queries = [(query, tuple(partners[sid][1])) for sid, sentence in sorted(references.items())
               if (query := build_query(sentence, params)) is not None][:args.queries]

    started = time.perf_counter()
    filtered = []
    for query, among in queries:
        allowed = set(among)
        hits = index.search(query)
        filtered.append(({h.sentence_id for h in hits if h.sentence_id in allowed},
                         len(hits) >= query.limit))
    window_s = time.perf_counter() - started
    started = time.perf_counter()
    restricted = [{h.sentence_id for h in index.search(replace(query, among_ids=among))}
                  for query, among in queries]
    story_s = time.perf_counter() - started

    capped = sum(full for _, full in filtered)
    differ = sum(kept != found for (kept, full), found in zip(filtered, restricted, strict=True)
                 if not full)
    report("hcsss_story_search", {
        "data_dir": str(args.data_dir), "queries": len(queries),
        "mean_partners": round(sum(len(a) for _, a in queries) / max(1, len(queries)), 1),
        "window_then_filter_ms": round(1000 * window_s / max(1, len(queries)), 3),
        "among_partners_ms": round(1000 * story_s / max(1, len(queries)), 3),
        "ratio": round(window_s / max(story_s, 1e-9), 2),
        "hits": sum(len(found) for found in restricted),
        "window_searches_capped": capped, "differing_uncapped": differ,
    })


if __name__ == "__main__":
    main()
