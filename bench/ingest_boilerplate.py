"""What stripping the sites' repeated lines at ingest (ingest.strip_boilerplate) takes out of
a finished run's pairs, without running the stages again.

    .venv/bin/python bench/ingest_boilerplate.py --data /work/scale/full/workers/data \
        [--run 1] [--read bench/results/scale_run_pairs30_read.json]

The store (read-only, as SQLite) holds a run ingested without stripping. Its articles go in
id order, the order they were ingested in, through the ingest's own stripping
(crawler.ingest.boilerplate, learning from an empty store); a pair is taken out when either
sentence lies inside a line stripped from its article. Reports the pairs and distinct text
pairs kept and taken out, the lines taken out most often, and, with --read (pairs read and
labelled by hand, by pair id), the labels of the read pairs on each side.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

from common import report

from parawire.crawler.ingest.boilerplate import strip_site_lines
from parawire.crawler.outlets import OutletLearning
from parawire.records import Article

_SPACE = re.compile(r"\s+")


def _squeezed(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def stripped_lines(db: sqlite3.Connection) -> dict[int, list[str]]:
    """Each article's lines that the ingest would strip (articles in id order)."""
    learning, removed = OutletLearning(None), {}
    for article_id, url, title, text in db.execute(
            "SELECT id, url, title, text FROM articles ORDER BY id"):
        article = Article(url=url, source="", language="en", title=title, text=text,
                          published=None)
        if strip_site_lines(learning, article):
            kept = Counter(article.text.split("\n"))
            gone = Counter(text.split("\n")) - kept
            removed[article_id] = [_squeezed(line) for line in gone.elements()]
    return removed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="the run's data directory")
    parser.add_argument("--run", type=int, default=1, help="the alignment run")
    parser.add_argument("--read", type=Path, help="read pairs: JSON list with pair_id, label")
    args = parser.parse_args()
    db = sqlite3.connect(f"file:{args.data / 'parawire.db'}?mode=ro", uri=True)
    removed = stripped_lines(db)
    pairs = db.execute(
        "SELECT p.id, a.article_id, a.text, b.article_id, b.text FROM pairs p "
        "JOIN sentences a ON a.id = p.input_sentence_id "
        "JOIN sentences b ON b.id = p.target_sentence_id WHERE p.run_id = ?", (args.run,))
    kept, gone, lines = set(), set(), Counter()
    texts: dict[int, frozenset[str]] = {}
    for pair_id, a_article, a_text, b_article, b_text in pairs:
        texts[pair_id] = frozenset((a_text, b_text))
        hit = [line for article, text in ((a_article, a_text), (b_article, b_text))
               for line in removed.get(article, ()) if _squeezed(text) in line]
        (gone if hit else kept).add(pair_id)
        lines.update(hit[:1])
    result = {
        "articles": db.execute("SELECT count(*) FROM articles").fetchone()[0],
        "articles_with_lines_stripped": len(removed),
        "lines_stripped": sum(map(len, removed.values())),
        "pairs": len(texts), "pairs_kept": len(kept), "pairs_taken_out": len(gone),
        "distinct_text_pairs_kept": len({texts[p] for p in kept}),
        "distinct_text_pairs_taken_out": len({texts[p] for p in gone}),
        "lines_taking_out_most_pairs": [[n, line[:120]] for line, n in lines.most_common(15)],
    }
    if args.read:
        read = json.loads(args.read.read_text())
        result["read_pairs"] = {side: dict(Counter(r["label"] for r in read
                                                   if (r["pair_id"] in gone) == (side == "taken_out")))
                                for side in ("kept", "taken_out")}
        result["read_pairs_taken_out"] = [[r["label"], r["a"][:90]] for r in read
                                          if r["pair_id"] in gone]
    report("ingest_boilerplate", result)


if __name__ == "__main__":
    main()
