"""Candidate recall of the dense source's search: the share of gold pairs that its k
candidates find (from either side): the k − lexical_k nearest by sentence vector, searched
through the same vector files, then the rest's lexical_k nearest by TF-IDF cosine
(aligner/lexical.py), as the source chooses them.

    nice .venv/bin/python bench/dense_recall.py [--model minilm] [--k 10] [--lexical-k 1]
        [--part check] [--min-cosine 0.3]

pairs-dev (../shared/data/pairs-dev): every lead and title sentence of all 80 stories is
searched among all of them at once (as one day's news; only the sentence's own article is
left out), recall per kind and grade on one part ("tune" to choose, "check" to report), for
every sentence and for those `vectors.embed = "pairable"` embeds (align.dense_min_words words
or more and no rule of their own broken, parawire/pairable.py, read from the text alone; the
80 stories all have several outlets; a title read as a title: it needs no end mark).
MSRP (train and val, never test): every sentence searched among all of the splits' sentences;
the share of labelled paraphrases among the candidates (Algorithm 1's gate: 0.42)."""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import SHARED_DATA, read_msrp, report

from parawire.aligner.lexical import LexicalPool
from parawire.config import AlignConfig, VectorsConfig
from parawire.indexer import VectorFiles
from parawire.nlp import embedder_for
from parawire.pairable import pairable
from parawire.records import TITLE_POSITION, Sentence


def embedded(texts: list[str], model: str) -> tuple[VectorFiles, float]:
    """The texts' vectors in vector files (ids 1..n), and the embedding rate."""
    embedder = embedder_for(VectorsConfig(models={"en": model}),
                            Path(tempfile.gettempdir()) / "parawire-bench", "en")
    started = time.perf_counter()
    vectors = embedder.encode(texts)
    rate = len(texts) / (time.perf_counter() - started)
    files = VectorFiles(Path(tempfile.mkdtemp(prefix="dense-recall-")), embedder.name,
                        embedder.version, embedder.dimensions)
    files.add(list(range(1, len(texts) + 1)), vectors)
    return files, rate


def neighbours(files: VectorFiles, texts: list[str], group: list[object], k: int,
               lexical_k: int, searched: list[bool], min_cosine: float = -1.0
               ) -> list[set[int]]:
    """Each searched text's k candidates among the other searched texts outside its group
    (none for a text not searched: one `vectors.embed = "pairable"` gives no vector), as the
    dense source chooses them: its k − lexical_k nearest by vector, then the rest's
    lexical_k nearest by TF-IDF cosine (fitted on every text, one pool), those of a cosine
    under `min_cosine` left out (align.dense_min_cosine)."""
    ids = [i + 1 for i, keep in enumerate(searched) if keep]
    found = files.search(files.get(ids), ids, k + 16)
    lexical = LexicalPool(ids, [texts[i - 1] for i in ids]) if lexical_k else None
    near: list[set[int]] = [set() for _ in searched]
    for own, hits in zip(ids, found, strict=True):
        mine = group[own - 1]
        chosen = [i for i, _ in hits if group[i - 1] != mine][:k - lexical_k]
        if lexical is not None:
            rest = [i for i in ids if group[i - 1] != mine and i not in chosen]
            chosen += [i for i, _ in lexical.nearest(texts[own - 1], rest, lexical_k)]
        cosines = files.get(chosen) @ files.get([own])[0] if chosen else []
        near[own - 1] = {i - 1 for i, c in zip(chosen, cosines, strict=True) if c >= min_cosine}
    return near


def recall(pairs: list[tuple[int, int]], near: list[set[int]]) -> dict[str, float | int]:
    """The share of pairs whose either side has the other among its candidates."""
    hit = sum(1 for a, b in pairs if b in near[a] or a in near[b])
    return {"pairs": len(pairs), "recall": round(hit / len(pairs), 3) if pairs else None}


def pairs_dev(model: str, k: int, lexical_k: int, part: str, min_words: int,
              min_cosine: float) -> dict[str, object]:
    folder = SHARED_DATA / "pairs-dev"
    sentences = [json.loads(line) for line in (folder / "sentences.jsonl").open()]
    gold = [json.loads(line) for line in (folder / "gold.jsonl").open()]
    row = {(s["story"], s["kind"], s["article"], s["index"]): i for i, s in enumerate(sentences)}
    texts = [s["text"] for s in sentences]
    files, rate = embedded(texts, model)
    groups: list[object] = [(s["story"], s["article"]) for s in sentences]
    grades: dict[str, Callable[[int], bool]] = {
        "grade>=3": lambda g: g >= 3, "grade>=4": lambda g: g >= 4, "grade==2": lambda g: g == 2}
    result: dict[str, object] = {"sentences_per_second": round(rate, 1)}
    # a title is read as a run stores it: at TITLE_POSITION (it needs no end mark)
    scopes = {"every sentence": [True] * len(texts),
              f"pairable (>= {min_words} words, no rule of its own)":
                  [pairable(Sentence(article_id=0, text=s["text"], position=TITLE_POSITION
                                     if s["kind"] == "title" else 0), min_words)
                   for s in sentences]}
    for scope, searched in scopes.items():
        near = neighbours(files, texts, groups, k, lexical_k, searched, min_cosine)
        result[f"{scope}: candidates"] = sum(len(n) for n in near)
        for kind in ("lead", "title"):
            for name, wanted in grades.items():
                chosen = [(row[(g["story"], kind, g["article_a"], g["index_a"])],
                           row[(g["story"], kind, g["article_b"], g["index_b"])])
                          for g in gold if g["part"] == part and g["kind"] == kind
                          and wanted(g["grade"])]
                result[f"{scope}: {kind} {name}"] = recall(chosen, near)
    return result


def msrp(model: str, k: int, lexical_k: int, min_cosine: float) -> dict[str, object]:
    rows = [r for split in ("train", "val") for r in read_msrp(split)]
    texts = list(dict.fromkeys(t for r in rows for t in (r[3], r[4])))
    row = {t: i for i, t in enumerate(texts)}
    files, _ = embedded(texts, model)
    near = neighbours(files, texts, list(range(len(texts))), k, lexical_k, [True] * len(texts),
                      min_cosine)
    paraphrases = [(row[r[3]], row[r[4]]) for r in rows if r[0] == 1 and r[3] != r[4]]
    return {"sentences": len(texts), **recall(paraphrases, near)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--lexical-k", type=int, default=AlignConfig().dense_lexical_k,
                        help="Of the k, how many by TF-IDF [default: align.dense_lexical_k].")
    parser.add_argument("--part", default="check", choices=["tune", "check"])
    parser.add_argument("--min-words", type=int, default=AlignConfig().dense_min_words,
                        help="Words of a pairable sentence [default: align.dense_min_words].")
    parser.add_argument("--min-cosine", type=float, default=AlignConfig().dense_min_cosine,
                        help="Lowest cosine of a candidate [default: align.dense_min_cosine].")
    args = parser.parse_args()
    report(f"dense_recall_{args.model}_{args.part}_k{args.k}_lexical{args.lexical_k}"
           f"_cos{args.min_cosine}", {
        "model": args.model, "k": args.k, "lexical_k": args.lexical_k, "part": args.part,
        "min_cosine": args.min_cosine,
        "pairs_dev": pairs_dev(args.model, args.k, args.lexical_k, args.part, args.min_words,
                               args.min_cosine),
        "msrp_train_val": msrp(args.model, args.k, args.lexical_k, args.min_cosine)})


if __name__ == "__main__":
    main()
