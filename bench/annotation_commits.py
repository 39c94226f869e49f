"""What the annotate stage's writes cost: one transaction per article (before) against
one per batch of nlp articles (after, `Store.transaction()`), on SQLite.

    nice -n 10 .venv/bin/python bench/annotation_commits.py [--articles 400]

The first N AllSides articles (../shared/data/allsides) are stored, then their sentences
(split on full stops; words as tokens, lemmas and nouns, so no NLP model runs and only the
writes are timed) and collocation counts are saved with `save_annotations` into two fresh
stores: each article in its own transaction, and 200 articles per transaction as the
annotate stage now does. Wall and CPU time; results in bench/results/annotation_commits.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
from collections import Counter
from itertools import islice, pairwise

from common import SHARED_DATA, report

from parawire.crawler import store_article
from parawire.records import Article, CollocationCounts, Sentence
from parawire.store import Store, open_store
from parawire.textnorm import content_hash, words

BATCH = 200


def _articles(count: int) -> list[Article]:
    path = SHARED_DATA / "allsides" / "articles.jsonl.gz"
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in islice(lines, count)]
    return [Article(url=r["url"], source=r["outlet"], language="en", title=r["title"],
                    text=r["text"], published=None, content_hash=content_hash(r["text"]))
            for r in records]


def _annotations(article: Article) -> tuple[list[Sentence], CollocationCounts]:
    assert article.id is not None
    sentences = []
    for position, text in enumerate(t for t in article.text.split(". ") if t.strip()):
        tokens = words(text)
        sentences.append(Sentence(article_id=article.id, position=position, text=text,
                                  tokens=tokens, lemmas=tokens, pos=["NOUN"] * len(tokens),
                                  common_nouns=sorted(set(tokens)), language="en"))
    tokens = [t for s in sentences for t in s.tokens]
    return sentences, CollocationCounts(Counter(tokens), Counter(pairwise(tokens)),
                                        len(tokens))


def _save(store: Store, articles: list[Article], per_batch: bool) -> tuple[float, float]:
    annotations = [(a.id, *_annotations(a)) for a in articles]
    started, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(annotations), BATCH):
        chunk = annotations[start:start + BATCH]
        if per_batch:
            with store.transaction():
                for article_id, sentences, counts in chunk:
                    store.save_annotations(article_id, sentences, counts)
        else:
            for article_id, sentences, counts in chunk:
                store.save_annotations(article_id, sentences, counts)
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=400)
    args = parser.parse_args()
    result: dict = {"articles": args.articles, "batch": BATCH}
    for name, per_batch in (("per_article", False), ("per_batch", True)):
        store = open_store(f"sqlite:///{tempfile.mkdtemp(prefix='parawire-commits-')}/s.db")
        articles = _articles(args.articles)
        for article in articles:
            store_article(store, article)
        wall, cpu = _save(store, articles, per_batch)
        result[name] = {"seconds": round(wall, 2), "cpu_s": round(cpu, 2),
                        "articles_per_s": round(args.articles / wall, 1)}
    result["speedup_wall"] = round(result["per_article"]["seconds"] /
                                   result["per_batch"]["seconds"], 2)
    result["note"] = "shared 2-core machine under load; SQLite in WAL mode on local disk"
    report("annotation_commits", result)


if __name__ == "__main__":
    main()
