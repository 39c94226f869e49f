"""Sentences with chosen nouns, for tests of the store, the index and the aligner."""

from __future__ import annotations

from datetime import date

from parawire.records import Sentence


def make_sentence(sentence_id: int, article_id: int, pn: list[str], cn: list[str], *,
                  text: str | None = None, language: str = "en", topic: str = "politics",
                  published: date | None = date(2026, 3, 2), source: str = "outlet-a",
                  position: int = 0) -> Sentence:
    """A sentence whose text mentions its nouns (so BM25 has something to rank)."""
    words = [*pn, *cn]
    return Sentence(
        id=sentence_id, article_id=article_id, position=position,
        text=text if text is not None else f"s{sentence_id} " + " ".join(words) + ".",
        tokens=words, lemmas=words, pos=["PROPN"] * len(pn) + ["NOUN"] * len(cn),
        entities=[(name, "PERSON") for name in pn], proper_nouns=sorted(set(pn)),
        common_nouns=sorted(set(cn)), language=language, topic=topic, published=published,
        source=source,
    )


def store_demo_articles(store) -> int:
    """Put the demo site's articles straight into a store (no crawl); returns how many."""
    from demo import load_articles
    from parawire.records import Article
    from parawire.textnorm import content_hash

    stored = 0
    for item in load_articles():
        text = "\n".join(item.paragraphs)
        store.add_article(Article(
            url=f"http://demo.test{item.path}", source=item.outlet, language="en",
            title=item.title, text=text, published=item.published.date(), topic="news",
            author=item.author, content_hash=content_hash(text),
        ))
        stored += 1
    return stored


_TEMPLATES = (
    ("{a} met {b} in {c} .", "in {c} , {a} met with {b} ."),
    ("{a} visited {c} with {b} .", "{b} and {a} went to {c} ."),
)


def invented_name(rng) -> str:
    """A pronounceable made-up word, almost surely seen nowhere else."""
    return "".join(rng.choice("bdgklmnprstvz") + rng.choice("aeiou") for _ in range(3))


def paraphrase_records(count: int, seed: int) -> list[dict[str, str]]:
    """Templated paraphrase pairs whose names are invented words: a model can only get the
    names right by copying them from the input."""
    import random

    rng = random.Random(seed)
    records = []
    for index in range(count):
        source, target = _TEMPLATES[index % len(_TEMPLATES)]
        names = {key: invented_name(rng) for key in "abc"}
        records.append({"input": source.format(**names), "target": target.format(**names)})
    return records


def write_paraphrase_corpus(folder, train: int = 48, valid: int = 8, test: int = 8,
                            seed: int = 0) -> None:
    """A corpus folder as `parawire export --format jsonl` writes one (splits only)."""
    import json

    folder.mkdir(parents=True, exist_ok=True)
    records = paraphrase_records(train + valid + test, seed)
    splits = {"train": records[:train], "valid": records[train:train + valid],
              "test": records[train + valid:]}
    for name, rows in splits.items():
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
