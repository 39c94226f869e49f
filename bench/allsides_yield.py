"""Yield on real multi-outlet news: a window of AllSides days, annotated, indexed, aligned.

    nice -n 10 .venv/bin/python bench/allsides_yield.py [--articles 500] [--align '{...}']

Takes the articles of consecutive days (from a seeded start among the days four or more
outlets reported on) until --articles are reached, runs annotate, index and align with the
default [align] and with each --align JSON of overrides, and reports pairs per 1,000
sentences with the run's counts. A seeded sample of kept pairs (--sample per run) is
written to bench/results/allsides_sample_<run>.jsonl for reading. The script runs on older
checkouts too (give only the overrides they know), for the figures before a change.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections import defaultdict
from datetime import date

from common import RESULTS, SHARED_DATA, build_corpus, report

from parawire.roof.pipeline import run_stage
from parawire.store import store_of


def window(size: int, seed: int) -> list[dict]:
    """Articles of consecutive days from a seeded busy day on, `size` of them."""
    by_day: dict[str, list[dict]] = defaultdict(list)
    with gzip.open(SHARED_DATA / "allsides" / "articles.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            article = json.loads(line)
            if article["date"] and article["text"]:
                by_day[article["date"]].append(article)
    days = sorted(by_day)
    busy = [d for d in days if len({a["outlet"] for a in by_day[d]}) >= 4]
    start = days.index(random.Random(seed).choice(busy[: len(busy) // 2]))
    chosen: list[dict] = []
    for day in days[start:]:
        chosen += sorted(by_day[day], key=lambda a: a["id"])
        if len(chosen) >= size:
            break
    return chosen[:size]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--align", action="append", default=[],
                        help="JSON object of [align] overrides for one more run")
    parser.add_argument("--name", default="allsides_yield")
    args = parser.parse_args()
    articles = window(args.articles, args.seed)
    settings, by_url = build_corpus(
        (a["url"] or a["id"], a["outlet"], f"{a['title']}\n{a['text']}",
         date.fromisoformat(a["date"])) for a in articles)
    sentences = sum(len(s) for s in by_url.values())
    text = {s.id: s.text for group in by_url.values() for s in group}
    runs = {}
    for k, overrides in enumerate([{}, *(json.loads(o) for o in args.align)]):
        run_settings = settings.model_copy(
            update={"align": settings.align.model_copy(update=overrides)})
        run = run_stage(run_settings, "align")
        pairs = store_of(settings).pairs(run["run_id"])
        name = f"run{k}"
        runs[name] = {"criteria": overrides or "defaults", "pairs": len(pairs),
                      "pairs_per_1000_sentences": round(1000 * len(pairs) / sentences, 2),
                      "counts": run}
        sample = random.Random(args.seed).sample(pairs, min(args.sample, len(pairs)))
        RESULTS.mkdir(exist_ok=True)
        with (RESULTS / f"{args.name}_sample_{name}.jsonl").open("w") as out:
            for pair in sample:
                out.write(json.dumps({"input": text[pair.input_sentence_id],
                                      "target": text[pair.target_sentence_id],
                                      "score": pair.score,
                                      "probability": getattr(pair, "probability", None)}) + "\n")
    report(args.name, {"articles": len(articles), "first_day": articles[0]["date"],
                       "last_day": articles[-1]["date"],
                       "outlets": len({a["outlet"] for a in articles}),
                       "sentences": sentences, "runs": runs})


if __name__ == "__main__":
    main()
