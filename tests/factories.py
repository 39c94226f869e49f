"""Sentences with chosen nouns, for tests of the store, the index and the aligner."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

from parawire.records import Article, Sentence
from parawire.store import store_of
from parawire.textnorm import content_hash


def make_article(n: int, text: str | None = None, **fields) -> Article:
    """Article n of outlet-a (its fields overridable), with its content hash."""
    body = text or f"Body of article {n} about the council budget."
    values = dict(url=f"http://news.test/a{n}", source="outlet-a", language="en",
                  title=f"Title {n}", text=body, published=date(2026, 3, 2),
                  content_hash=content_hash(body))
    values.update(fields)
    return Article(**values)


def make_sentence(sentence_id: int, article_id: int, pn: list[str], cn: list[str], *,
                  text: str | None = None, language: str = "en", topic: str = "politics",
                  published: date | None = date(2026, 3, 2), source: str = "outlet-a",
                  position: int = 0, keys: list[str] | None = None) -> Sentence:
    """A sentence whose text mentions its nouns (so BM25 has something to rank); its entity
    keys are `keys` (default: the names themselves). Its tags are nouns only, so its text
    has no full stop (a verbless sentence with one is a fragment the aligner drops)."""
    words = [*pn, *cn]
    return Sentence(
        id=sentence_id, article_id=article_id, position=position,
        text=text if text is not None else f"s{sentence_id} " + " ".join(words),
        tokens=words, lemmas=words, pos=["PROPN"] * len(pn) + ["NOUN"] * len(cn),
        entities=[(name, "PERSON") for name in pn], proper_nouns=sorted(set(pn)),
        entity_keys=sorted(set(pn if keys is None else keys)),
        common_nouns=sorted(set(cn)), language=language, topic=topic, published=published,
        source=source,
    )


def stating(sentence: Sentence) -> Sentence:
    """The sentence with a verb and a full stop at the end of its tokens (its text is
    the caller's): a claim, neither a verbless fragment nor a line without an end mark."""
    return replace(sentence, tokens=[*sentence.tokens, "met", "."],
                   lemmas=[*sentence.lemmas, "meet", "."], pos=[*sentence.pos, "VERB", "PUNCT"])


def make_claim(text: str, **fields) -> Sentence:
    """A sentence that states a claim, as the embed stage and the dense source see one: the
    text given, its one word tagged as a verb (not a verbless fragment)."""
    return replace(make_sentence(0, 0, [], ["word"], text=text, **fields), pos=["VERB"])


def store_demo_articles(store) -> int:
    """Put the demo site's articles straight into a store (no crawl); returns how many."""
    from parawire.crawler import store_article
    from parawire.demo import load_articles
    from parawire.records import Article
    from parawire.textnorm import content_hash

    stored = 0
    for item in load_articles():
        text = "\n".join(item.paragraphs)
        store_article(store, Article(
            url=f"http://demo.test{item.path}", source=item.outlet, language="en",
            title=item.title, text=text, published=item.published.date(), topic="news",
            author=item.author, content_hash=content_hash(text),
        ))
        stored += 1
    return stored


def store_annotated_article(store, url: str, sentences: list[Sentence], *, title: str = "",
                            source: str = "outlet-a", published: date | None = date(2026, 3, 2),
                            topic: str = "politics", language: str = "en") -> list[int]:
    """Store an article made of these sentences, already annotated; returns the sentence ids
    in order (the sentences' own ids and article ids are replaced by the store's)."""
    from parawire.crawler import store_article
    from parawire.records import Article
    from parawire.textnorm import content_hash

    text = " ".join(s.text for s in sentences)
    article = Article(url=url, source=source, language=language, title=title, text=text,
                      published=published, topic=topic, content_hash=content_hash(url + text))
    store_article(store, article)
    for position, sentence in enumerate(sentences):
        sentence.article_id, sentence.position = article.id, position
        sentence.source, sentence.published, sentence.topic = source, published, topic
        sentence.language = language
    store.save_annotations(article.id, sentences)
    batches = store.iter_sentences()
    return [s.id for batch in batches for s in batch if s.article_id == article.id]


# Crawled text is untrusted: markup, script and an event handler, as a hostile page could hold.
XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'


def store_hostile_article(store, published: date | None = date(2026, 3, 3)) -> list[int]:
    """An article whose title, text and URL carry script (outlet "outlet-x"); returns its
    sentence ids. A page that runs any of it sets window.__xss."""
    return store_annotated_article(store, "javascript:window.__xss=3", [
        make_sentence(0, 0, ["rossi"], ["budget"], text=f"{XSS} Rossi budget news."),
    ], source="outlet-x", published=published, title=XSS)


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


SYNTHETIC_NAMES = [f"name {i}" for i in range(60)]
SYNTHETIC_NOUNS = [f"noun{i}" for i in range(120)]


def store_synthetic_groups(settings, articles: int = 1500) -> None:
    """Synthetic annotated articles (one sentence each) in groups of four that share their
    names and most nouns, over nine days; the same store for the same count."""
    rng = random.Random(5)
    store = store_of(settings)
    for n in range(articles):
        group = n // 4
        grng = random.Random(group)
        pn, cn = grng.sample(SYNTHETIC_NAMES, 3), grng.sample(SYNTHETIC_NOUNS, 4)
        cn = [c for c in cn if rng.random() > 0.2] + rng.sample(SYNTHETIC_NOUNS, 1)
        day = date(2026, 3, 1) + timedelta(days=group % 9)
        article = Article(url=f"http://syn.test/{n}", source=f"outlet-{n % 4}", language="en",
                          title=f"t{n}", text=f"text {n}", published=day,
                          content_hash=f"{n:064d}")
        store.add_article(article)
        sentence = make_sentence(None, article.id, pn, cn, published=day,
                                 source=article.source, text=f"{n} " + " ".join(pn + cn) + " met.")
        store.save_annotations(article.id, [stating(sentence)])
