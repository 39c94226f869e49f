"""End to end on ECB+: 921 real news articles about 43 events; how many pairs, on-event?

    nice -n 10 .venv/bin/python bench/ecbplus_alignment.py [--relaxed 2 1 0.5 0.0] \
        [--sparse-min-pn 3]

Annotates, indexes and aligns every article (no dates in ECB+, so no date window), with
the default [align] parameters and with relaxed criteria (min_cn, min_pn, alpha, beta; the
scorer and the filters as configured), then reports pairs per 1,000 sentences and the
share of mined pairs whose two sentences come from articles on the same event topic (and
sub-topic). --sparse-min-pn adds runs at the defaults but for that reference rule (3, the
default min_pn, is the rule before issue 12). Run the same script on an older checkout for
the figures before a change.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from common import SHARED_DATA, build_corpus, report

from parawire.roof.pipeline import run_stage
from parawire.store import store_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relaxed", type=float, nargs=4, default=[2, 1, 0.5, 0.0],
                        metavar=("MIN_CN", "MIN_PN", "ALPHA", "BETA"))
    parser.add_argument("--sparse-min-pn", type=int, nargs="+", default=[], metavar="N",
                        help="extra runs at the defaults with this align.sparse_min_pn")
    args = parser.parse_args()
    articles = [json.loads(line) for line in (SHARED_DATA / "ecbplus" / "articles.jsonl").open()]
    topic = {f"ecb:{a['id']}": (a["topic"], a["subtopic"]) for a in articles}
    started = time.perf_counter()
    settings, by_url = build_corpus(
        (f"ecb:{a['id']}", f"ecb-{a['id']}", f"{a['title']}\n{a['text']}", None) for a in articles
    )
    prepared = time.perf_counter() - started
    sentences = sum(len(s) for s in by_url.values())
    article_of = {s.id: url for url, sentences in by_url.items() for s in sentences}
    min_cn, min_pn, alpha, beta = args.relaxed
    runs: dict[str, Any] = {}
    criteria: list[tuple[str, dict[str, Any]]] = [
        ("defaults", {}),
        ("relaxed", {"min_cn": int(min_cn), "min_pn": int(min_pn), "alpha": alpha, "beta": beta}),
        *((f"sparse_min_pn_{n}", {"sparse_min_pn": n}) for n in args.sparse_min_pn)]
    for name, align in criteria:
        # ECB+ has no dates and no stories: the paper's search over the whole window
        run_settings = settings.model_copy(
            update={"align": settings.align.model_copy(update={**align, "within": "window"})})
        started = time.perf_counter()
        run = run_stage(run_settings, "align")
        seconds = time.perf_counter() - started
        pairs = store_of(settings).pairs(run["run_id"])
        same_topic = sum(topic[article_of[p.input_sentence_id]][0] ==
                         topic[article_of[p.target_sentence_id]][0] for p in pairs)
        same_subtopic = sum(topic[article_of[p.input_sentence_id]] ==
                            topic[article_of[p.target_sentence_id]] for p in pairs)
        runs[name] = {
            "criteria": align or "defaults",
            "pairs": len(pairs),
            "pairs_per_1000_sentences": round(1000 * len(pairs) / sentences, 2),
            "same_topic_fraction": round(same_topic / len(pairs), 4) if pairs else None,
            "same_subtopic_fraction": round(same_subtopic / len(pairs), 4) if pairs else None,
            "align_seconds": round(seconds, 2),
            "counts": run,
        }
    report("ecbplus_alignment", {
        "articles": len(articles),
        "sentences": sentences,
        "annotate_and_index_seconds": round(prepared, 1),
        "runs": runs,
    })


if __name__ == "__main__":
    main()
