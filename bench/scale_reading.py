"""Reading a scale run by hand: random useful pairs, grade-3 pairs, stories and articles left
alone to judge, then the judgements summed up against the pair model.

    .venv/bin/python bench/scale_reading.py sample --work /tmp/sr28 [--seed 1] [--lone 0]
    .venv/bin/python bench/scale_reading.py summarise --work /tmp/sr28

`sample` writes <work>/reading.md (what to read) and <work>/reading.jsonl: one line per item
with the model's grade and direction, and empty judgement fields to fill by the scheme in
../shared/data/pairs-dev/README.md: `grade` (0-5), `direction` (equivalent, a_covers_b,
b_covers_a, both_add; side a is the pair's input), `copy` (near or quote copy), `boilerplate`
(a line an outlet repeats, a credit or a promotion), `note`; a story gets `coherent` (one
event) and `note`; an article alone in its story (`--lone`) is shown with its nearest article
of another outlet within the stories' window of days (the stories stage's own TF-IDF vectors
of title and lead, fitted on the run's articles) and gets `missed` (the two tell one event)
and `note`. Useful pairs are the export's examples (flipped copies left out); grade-3
pairs are any the run stored at grade 3, exported or not. `summarise` reads the filled file:
precision of the useful pairs (a reader's grade 4-5, or 3 with the input covering the
target), boilerplate and copies among them, the grades where reader and model disagree,
the share of coherent stories and of lone articles whose story was missed.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

from common import report

from parawire.aligner.stories.grouping import story_text, story_vectors
from parawire.config import load_settings
from parawire.store import store_of

JUDGED = {"grade": None, "direction": None, "copy": None, "boilerplate": None, "note": ""}


def _exported(work: Path) -> list[dict[str, Any]]:
    folders = sorted((work / "data" / "corpus").glob("run-*"))
    if not folders:
        raise SystemExit(f"no export under {work / 'data' / 'corpus'}: run the export first")
    return [record for split in ("train", "valid", "test")
            for line in (folders[-1] / f"{split}.jsonl").open(encoding="utf-8")
            if not (record := json.loads(line))["flipped"]]


def _pair_item(kind: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "input_id": record["input_id"], "target_id": record["target_id"],
            "input": record["input"], "target": record["target"],
            "outlets": [record.get("input_outlet"), record.get("target_outlet")],
            "model_grade": record["grade"], "model_direction": record["direction"], **JUDGED}


def _grade3(data_dir: Path, run_id: int) -> list[dict[str, Any]]:
    """Every pair the run stored at grade 3, as the store reads them for an export."""
    store = store_of(load_settings(data_dir=data_dir))
    return [_pair_item("grade3", {
        "input_id": row.pair.input_sentence_id, "target_id": row.pair.target_sentence_id,
        "input": row.input.text, "target": row.target.text,
        "input_outlet": row.input.source, "target_outlet": row.target.source,
        "grade": row.pair.grade, "direction": row.pair.direction})
        for row in store.pair_rows(run_id) if row.pair.grade == 3]


def _stories(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        stories = conn.execute("SELECT id, headline FROM stories WHERE "
                               "json_array_length(outlets) > 1 ORDER BY id").fetchall()
        titles = conn.execute(
            "SELECT sa.story_id, a.source, a.published, a.title FROM story_articles sa "
            "JOIN articles a ON a.id = sa.article_id ORDER BY a.published, a.id").fetchall()
    by_story: dict[int, list[str]] = {}
    for story_id, source, published, title in titles:
        by_story.setdefault(story_id, []).append(f"{published} {source}: {title}")
    return [{"kind": "story", "story_id": sid, "headline": headline,
             "articles": by_story.get(sid, []), "coherent": None, "note": ""}
            for sid, headline in stories]


def _lone(data_dir: Path) -> list[dict[str, Any]]:
    """Every article alone in its story, with its nearest article of another outlet within
    the stories' window of days and their cosine."""
    config = load_settings(data_dir=data_dir).stories
    with sqlite3.connect(f"file:{data_dir / 'parawire.db'}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        articles = conn.execute(
            "SELECT a.id, a.source, a.published, a.title, a.text, (SELECT COUNT(*) FROM "
            "story_articles o WHERE o.story_id = sa.story_id) AS size FROM articles a "
            "JOIN story_articles sa ON sa.article_id = a.id "
            "WHERE a.published IS NOT NULL ORDER BY a.id").fetchall()
    vectors = story_vectors([story_text(a["title"], a["text"], config.lead_words)
                             for a in articles],
                            config.lone_word_weight, config.lone_word_min_texts)
    days = [date.fromisoformat(str(a["published"])[:10]) for a in articles]

    def shown(article: sqlite3.Row) -> str:
        return f"{article['published']} {article['source']}: {article['title']}"

    items = []
    for i, article in enumerate(articles):
        if article["size"] != 1:
            continue
        near = [j for j, other in enumerate(articles) if other["source"] != article["source"]
                and abs((days[j] - days[i]).days) <= config.window_days]
        cosines = (vectors[near] @ vectors[i].T).toarray().ravel() if near else []
        best = max(range(len(near)), key=lambda n: cosines[n], default=None)
        items.append({"kind": "lone", "article_id": article["id"], "article": shown(article),
                      "nearest": None if best is None else shown(articles[near[best]]),
                      "cosine": None if best is None else round(float(cosines[best]), 3),
                      "missed": None, "note": ""})
    return items


def sample(work: Path, seed: int, useful: int, grade3: int, stories: int, lone: int) -> None:
    """Write the items to read (markdown) and to judge (jsonl)."""
    rng = random.Random(seed)
    exported = _exported(work)
    db = work / "data" / "parawire.db"
    items = [_pair_item("useful", r) for r in rng.sample(exported, min(useful, len(exported)))]
    pool = _grade3(work / "data", exported[0]["run_id"])
    items += rng.sample(pool, min(grade3, len(pool)))
    pool = _stories(db)
    items += rng.sample(pool, min(stories, len(pool)))
    if lone:
        pool = _lone(work / "data")
        items += rng.sample(pool, min(lone, len(pool)))
    lines = []
    for number, item in enumerate(items, start=1):
        if item["kind"] == "story":
            lines += [f"## {number}. story {item['story_id']}: {item['headline']}",
                      *[f"- {a}" for a in item["articles"]], ""]
        elif item["kind"] == "lone":
            lines += [f"## {number}. alone: {item['article']}",
                      f"- nearest (cosine {item['cosine']}): {item['nearest']}", ""]
        else:
            lines += [f"## {number}. {item['kind']} (model: grade {item['model_grade']}, "
                      f"{item['model_direction']}) {' / '.join(map(str, item['outlets']))}",
                      f"A: {item['input']}", f"B: {item['target']}", ""]
    (work / "reading.md").write_text("\n".join(lines), encoding="utf-8")
    with (work / "reading.jsonl").open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(item) + "\n" for item in items)
    print(f"{len(items)} items: {work / 'reading.md'}; judge them in {work / 'reading.jsonl'}")


def _useful(item: dict[str, Any]) -> bool:
    return item["grade"] >= 4 or (item["grade"] == 3 and item["direction"] == "a_covers_b")


def summarise(work: Path) -> None:
    """The judgements against the model."""
    items = [json.loads(line) for line in (work / "reading.jsonl").open(encoding="utf-8")]
    verdict = {"story": "coherent", "lone": "missed"}
    missing = [i for i, item in enumerate(items, start=1)
               if item[verdict.get(item["kind"], "grade")] is None]
    if missing:
        raise SystemExit(f"items not judged yet: {missing[:20]}")
    result: dict[str, Any] = {}
    for kind in ("useful", "grade3"):
        read = [item for item in items if item["kind"] == kind]
        if not read:
            continue
        right = [item for item in read if _useful(item) and not item["copy"]
                 and not item["boilerplate"]]
        result[kind] = {
            "read": len(read), "useful_by_reader": len(right),
            "precision": round(len(right) / len(read), 3),
            "boilerplate_or_copy": sum(bool(i["copy"] or i["boilerplate"]) for i in read),
            "reader_grades": {g: sum(i["grade"] == g for i in read) for g in range(6)},
            "same_grade_as_model": sum(i["grade"] == i["model_grade"] for i in read),
            "disagreements": [
                {"model": f"{i['model_grade']} {i['model_direction']}",
                 "reader": f"{i['grade']} {i['direction']}", "note": i["note"],
                 "a": i["input"][:160], "b": i["target"][:160]}
                for i in read if (i["grade"], i["direction"]) != (i["model_grade"],
                                                                  i["model_direction"])]}
    stories = [item for item in items if item["kind"] == "story"]
    if stories:
        result["stories"] = {"read": len(stories),
                             "coherent": sum(bool(s["coherent"]) for s in stories),
                             "notes": [s["note"] for s in stories if s["note"]]}
    lone = [item for item in items if item["kind"] == "lone"]
    if lone:
        result["lone_articles"] = {"read": len(lone),
                                   "story_missed": sum(bool(i["missed"]) for i in lone),
                                   "cosines": sorted(i["cosine"] for i in lone
                                                     if i["cosine"] is not None),
                                   "notes": [i["note"] for i in lone if i["note"]]}
    report("scale_reading", result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("sample", "summarise"))
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--useful", type=int, default=50)
    parser.add_argument("--grade3", type=int, default=20)
    parser.add_argument("--stories", type=int, default=20)
    parser.add_argument("--lone", type=int, default=0,
                        help="Articles alone in their story to read with their nearest.")
    args = parser.parse_args()
    if args.action == "sample":
        sample(args.work, args.seed, args.useful, args.grade3, args.stories, args.lone)
    else:
        summarise(args.work)


if __name__ == "__main__":
    main()
