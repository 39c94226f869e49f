"""Story grouping quality: B-cubed precision, recall and F1, and the number of stories.

    nice -n 10 .venv/bin/python bench/stories_quality.py [--stories-per-day 20] [--tune]

NeuS (split `train` to tune the threshold and the lone words' weight with --tune; `val` and
`test` reported): the stories carry no dates, so they are shuffled (seeded) and laid on
days, --stories-per-day a day, each article on its story's day or (one in four) the next.
ECB+: no dates either, so all 921 articles lie on one day (every article can join every
story: harder than news); truth: the subtopic (one event), and the topic (two events of one
kind) at the coarse level.
Each set goes through the stories stage on a fresh SQLite store (online, day by day), and
through a batch clustering of the same texts (scikit-learn's average-link agglomerative
clustering at the same threshold, articles more than window_days apart kept apart).
AllSides: a window of the archive, no truth: sizes, outlets per story, and 20 seeded
multi-outlet stories written to bench/results/stories_allsides_sample.jsonl for reading.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from typing import Any

import numpy as np
from common import RESULTS, report
from sklearn.cluster import AgglomerativeClustering
from stories_data import Labelled, allsides, ecbplus, neus, stored

from parawire.aligner.stories import story_text, story_vectors
from parawire.config import Settings
from parawire.roof.pipeline import run_stage
from parawire.store import store_of

# (threshold, lone_word_weight) scanned on NeuS train: 1.0 is the plain TF-IDF cosine
TUNE_GRID = ((0.18, 1.0), (0.2, 1.0), (0.2, 0.7), (0.22, 0.7), (0.24, 0.7), (0.22, 0.5), (0.24, 0.5),
             (0.26, 0.5), (0.24, 0.3))


def bcubed(predicted: list[Any], truth: list[Any]) -> dict[str, float]:
    """B-cubed precision, recall and F1 of a clustering against the truth, and the count of
    predicted clusters."""
    pred, true, both = Counter(predicted), Counter(truth), Counter(zip(predicted, truth, strict=True))
    n = len(predicted)
    precision = sum(both[p, t] / pred[p] for p, t in zip(predicted, truth, strict=True)) / n
    recall = sum(both[p, t] / true[t] for p, t in zip(predicted, truth, strict=True)) / n
    return {"precision": round(precision, 4), "recall": round(recall, 4),
            "f1": round(2 * precision * recall / (precision + recall), 4),
            "clusters": len(pred), "true_clusters": len(true)}


def online(settings: Settings, labelled: list[Labelled]) -> list[Any]:
    """Each article's story from the stories stage (an article in no story alone)."""
    run_stage(settings, "stories", redo=True)
    story_of = store_of(settings).stories_of_articles(x.article.id for x in labelled)
    return [story_of.get(x.article.id, f"alone-{x.article.id}") for x in labelled]


def batch(settings: Settings, labelled: list[Labelled]) -> list[int]:
    """Average-link agglomerative clustering of all articles at once, at the same threshold."""
    config = settings.stories
    texts = [story_text(x.article.title, x.article.text, config.lead_words) for x in labelled]
    vectors = story_vectors(texts, config.lone_word_weight, config.lone_word_min_texts)
    distance = 1.0 - (vectors @ vectors.T).toarray()
    days = np.array([x.article.published.toordinal() for x in labelled])
    distance[np.abs(days[:, None] - days[None, :]) > config.window_days] = 1.0
    np.fill_diagonal(distance, 0.0)
    model = AgglomerativeClustering(n_clusters=None, metric="precomputed", linkage="average",
                                    distance_threshold=1.0 - config.threshold)
    return model.fit_predict(np.clip(distance, 0.0, 1.0)).tolist()


def evaluate(labelled: list[Labelled], stories: dict[str, float] | None = None,
             with_batch: bool = True, coarse: bool = False) -> dict[str, Any]:
    """Online (the stage) and batch scores of one data set ([stories] as configured, or
    with `stories` overriding some of it)."""
    settings = stored([x.article for x in labelled], **({"stories": stories} if stories else {}))
    truth = [x.truth for x in labelled]
    found = online(settings, labelled)
    result: dict[str, Any] = {"articles": len(labelled), "online": bcubed(found, truth)}
    if coarse:
        result["online_coarse"] = bcubed(found, [x.coarse for x in labelled])
    if with_batch:
        result["batch"] = bcubed(batch(settings, labelled), truth)
    return result


def allsides_window(size: int, seed: int) -> dict[str, Any]:
    """Stories of `size` dated AllSides articles from a seeded day on: sizes, outlets per
    story, and 20 seeded multi-outlet stories written out for reading."""
    dated = sorted((a for a in allsides() if a.published and a.published.year >= 2012),
                   key=lambda a: (a.published, a.url))
    start = random.Random(seed).randrange(len(dated) - size)
    articles = dated[start:start + size]
    settings = stored(articles)
    run_stage(settings, "stories")
    store = store_of(settings)
    stories = store.stories_between("en")
    sizes = Counter(len(s.article_ids) for s in stories)
    outlets = Counter(len(s.outlets) for s in stories)
    multi = [s for s in stories if len(s.outlets) >= 2]
    titles = {a.id: (a.source, a.title) for a in articles}
    sample = random.Random(seed).sample(multi, min(20, len(multi)))
    with (RESULTS / "stories_allsides_sample.jsonl").open("w") as out:
        for story in sample:
            out.write(json.dumps({"story": story.id, "days": [str(story.first_day),
                                                               str(story.last_day)],
                                  "articles": [titles[a] for a in story.article_ids]}) + "\n")
    return {"articles": size, "first_day": str(articles[0].published),
            "last_day": str(articles[-1].published), "stories": len(stories),
            "multi_outlet_stories": len(multi),
            "articles_in_multi_outlet_stories": sum(len(s.article_ids) for s in multi),
            "story_sizes": dict(sorted(sizes.items())),
            "outlets_per_story": dict(sorted(outlets.items()))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stories-per-day", type=int, default=20)
    parser.add_argument("--tune", action="store_true", help="scan [stories] settings on NeuS train")
    parser.add_argument("--sets", nargs="*", default=["neus", "ecbplus", "allsides"],
                        choices=["neus", "ecbplus", "allsides"], help="data sets reported")
    parser.add_argument("--allsides", type=int, default=3000, help="articles of the window")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    result: dict[str, Any] = {"stories_per_day": args.stories_per_day}
    parts: dict[str, Any] = {}
    if args.tune:
        train = neus("train", args.stories_per_day)
        parts.update({f"neus_train_{t}_{w}": lambda t=t, w=w: evaluate(
            train, {"threshold": t, "lone_word_weight": w}, with_batch=False)
            for t, w in TUNE_GRID})
    if "neus" in args.sets:
        parts.update({f"neus_{split}": lambda split=split: evaluate(
            neus(split, args.stories_per_day)) for split in ("val", "test")})
    if "ecbplus" in args.sets:
        parts["ecbplus"] = lambda: evaluate(ecbplus(), coarse=True)
    if "allsides" in args.sets:
        parts["allsides"] = lambda: allsides_window(args.allsides, args.seed)
    for name, run in parts.items():
        result[name] = run()
        print(name, json.dumps(result[name]), file=sys.stderr, flush=True)
    report("stories_quality" + ("_tune" if args.tune else ""), result)


if __name__ == "__main__":
    main()
