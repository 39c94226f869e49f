"""End to end on ECB+: 921 real news articles about 43 events; are mined pairs on-event?

    .venv/bin/python bench/ecbplus_alignment.py

Annotates, indexes and aligns every article (no dates in ECB+, so no date window), then
reports the share of mined pairs whose two sentences come from articles on the same event
topic (and sub-topic), with the default parameters of the paper.
"""

from __future__ import annotations

import json
import time

from common import SHARED_DATA, build_corpus, report

from parawire.roof.pipeline import run_stage
from parawire.store import store_of


def main() -> None:
    articles = [json.loads(line) for line in (SHARED_DATA / "ecbplus" / "articles.jsonl").open()]
    topic = {f"ecb:{a['id']}": (a["topic"], a["subtopic"]) for a in articles}
    started = time.perf_counter()
    settings, by_url = build_corpus(
        (f"ecb:{a['id']}", f"ecb-{a['id']}", f"{a['title']}\n{a['text']}", None) for a in articles
    )
    prepared = time.perf_counter() - started
    article_of = {s.id: url for url, sentences in by_url.items() for s in sentences}
    started = time.perf_counter()
    run = run_stage(settings, "align")
    align_seconds = time.perf_counter() - started
    pairs = store_of(settings).pairs(run["run_id"])
    same_topic = sum(topic[article_of[p.input_sentence_id]][0] ==
                     topic[article_of[p.target_sentence_id]][0] for p in pairs)
    same_subtopic = sum(topic[article_of[p.input_sentence_id]] ==
                        topic[article_of[p.target_sentence_id]] for p in pairs)
    report("ecbplus_alignment", {
        "articles": len(articles),
        "sentences": sum(len(s) for s in by_url.values()),
        "references": run.get("references_done", 0),
        "pairs": len(pairs),
        "same_topic_fraction": round(same_topic / len(pairs), 4) if pairs else None,
        "same_subtopic_fraction": round(same_subtopic / len(pairs), 4) if pairs else None,
        "annotate_and_index_seconds": round(prepared, 1),
        "align_seconds": round(align_seconds, 2),
        "counts": run,
    })


if __name__ == "__main__":
    main()
