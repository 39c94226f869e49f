"""Table I of the paper on our own corpus: ROUGE-1/2/L F1 (and BLEU) on a held-out test split
for seq2seq+attention, the pointer-generator, and the pointer-generator started from an
autoencoder pre-trained on the same training sentences.

    .venv/bin/python bench/ecbplus_corpus.py --out data/ecbplus-corpus
    .venv/bin/parawire demo            # writes data/corpus/run-1-jsonl
    .venv/bin/python bench/table1.py --corpus data/ecbplus-corpus --corpus data/corpus/run-1-jsonl

Several --corpus folders are concatenated split by split (their sentences come from
different articles, so no sentence crosses splits). Every model gets the same sizes,
seed and epoch and time budget (--max-minutes each); early stopping picks the checkpoint
scored. With --pretrain-store DATA_DIR the autoencoder pre-trains on --pretrain-sentences
sentences drawn from that store (the corpus's own news), none of them a sentence of the
valid or test split; without it, on the train split's sentences. A run folder (--runs) that
holds finished models is scored again without training, so the models can be trained by
separate invocations (--models) and reported by a last one.

    .venv/bin/python bench/table1.py --corpus /work/scale/full/corpus --runs R \
        --pretrain-store /work/scale/full/data --pretrain-sentences 60000 --max-minutes 20
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

import torch

from parawire.trainer.corpus import read_records, read_split, split_path, tokenize
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.evaluation import evaluate
from parawire.trainer.metrics import score_all
from parawire.trainer.training import TrainConfig, train

SPLITS = ("train", "valid", "test")
MODELS = ("seq2seq", "pointer", "autoencoder", "pointer-pretrained")
SAMPLES = 10


def merge(corpora: list[Path], out: Path) -> dict[str, int]:
    """Concatenate the corpora's splits into out (a split already there as it would be is
    left alone: another invocation may be training on it); returns the pairs per split."""
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for split in SPLITS:
        lines = [line for corpus in corpora
                 for line in (corpus / f"{split}.jsonl").read_text().splitlines() if line.strip()]
        text, path = "".join(line + "\n" for line in lines), out / f"{split}.jsonl"
        if not path.is_file() or path.read_text() != text:
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(text)
            temporary.replace(path)
        counts[split] = len(read_split(out, split))
    return counts


def pretraining_corpus(store_dir: Path, corpus: Path, count: int, seed: int, out: Path
                       ) -> dict[str, int]:
    """Write `count` sentences drawn from the store in `store_dir` as an autoencoder's train
    split (input = target) to out, with the corpus's valid split beside it. No sentence of
    the valid or test split (compared as tokens) is drawn. A folder drawn before is kept as
    it is."""
    drawn_file = out / "drawn.json"
    if drawn_file.is_file():
        return json.loads(drawn_file.read_text())
    from sqlalchemy import select

    from parawire.config import load_settings
    from parawire.store import store_of
    from parawire.store.schema import sentences

    held_out = {tokenize(text) for split in ("valid", "test")
                for pair in read_records(split_path(corpus, split)) for text in pair}
    store = store_of(load_settings(data_dir=store_dir))
    drawn: list[str] = []
    rng = random.Random(seed)
    seen = 0
    with store.engine.connect() as conn:  # reservoir sampling: one pass, `count` texts kept
        for (text,) in conn.execute(select(sentences.c.text)).yield_per(10_000):
            if tokenize(text) in held_out:
                continue
            seen += 1
            if len(drawn) < count:
                drawn.append(text)
            elif (slot := rng.randrange(seen)) < count:
                drawn[slot] = text
    out.mkdir(parents=True, exist_ok=True)
    (out / "train.jsonl").write_text("".join(
        json.dumps({"input": text, "target": text}, ensure_ascii=False) + "\n" for text in drawn))
    for split in ("valid", "test"):
        (out / f"{split}.jsonl").write_text(split_path(corpus, split).read_text())
    stats = {"sentences": len(drawn), "eligible": seen, "held_out": len(held_out)}
    drawn_file.write_text(json.dumps(stats))
    return stats


def run(corpus: Path, runs: Path, name: str, config: TrainConfig, options: DecodeOptions,
        init_from: Path | None = None) -> dict:
    """Train one model (or find it trained) and score its best checkpoint on the test split
    (from its test outputs when they were written after the checkpoint)."""
    summary = train(corpus, runs / name, config, init_from=init_from)
    best, predictions = runs / name / "best.pt", runs / f"{name}-test.jsonl"
    if not predictions.is_file() or predictions.stat().st_mtime < best.stat().st_mtime:
        evaluate(best, "test", corpus, options, predictions=predictions, threads=config.threads)
    rows = [json.loads(line) for line in predictions.read_text().splitlines()]
    scores = score_all([row["output"] for row in rows], [row["target"] for row in rows],
                       [row["input"] for row in rows])
    return {"device": summary["device"], "epochs": summary["epochs"],
            "best_epoch": summary["best_epoch"], "stopped": summary["stopped"],
            "best_valid_loss": round(summary["best_valid_loss"], 4),
            "train_seconds": summary["train_seconds"], "vocab_size": summary["vocab_size"],
            "train_examples": summary["train_examples"],
            **scores}


def samples(predictions: Path, seed: int) -> list[dict[str, str]]:
    """SAMPLES test outputs (input, target, output), the same test rows for every model."""
    rows = [json.loads(line) for line in predictions.read_text().splitlines()]
    picked = sorted(random.Random(seed).sample(range(len(rows)), min(SAMPLES, len(rows))))
    return [rows[i] for i in picked]


def identity_scores(corpus: Path) -> dict[str, float]:
    """Scores of the inputs themselves as outputs: how much of each target is already there."""
    pairs = read_split(corpus, "test")
    inputs = [" ".join(p.source) for p in pairs]
    return score_all(inputs, [" ".join(p.target) for p in pairs], inputs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", required=True)
    parser.add_argument("--runs", type=Path, help="Where the runs go (default: a temp folder).")
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"Which to train and score, of {','.join(MODELS)} [default: all].")
    parser.add_argument("--embedding", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--batch-size", type=int, default=8,
                        help="Small batches: a few hundred pairs give few updates per epoch.")
    parser.add_argument("--epochs", type=int, default=30, help="Most epochs per model.")
    parser.add_argument("--max-minutes", type=float, default=0,
                        help="Training minutes per model; no epoch starts after [default: 0, "
                             "no limit].")
    parser.add_argument("--pretrain-epochs", type=int, default=10)
    parser.add_argument("--pretrain-store", type=Path,
                        help="A parawire data dir whose sentences the autoencoder pre-trains on.")
    parser.add_argument("--pretrain-sentences", type=int, default=50_000)
    parser.add_argument("--patience", type=int, default=10)
    parser.add_argument("--beam", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--result", type=Path,
                        help="Write the result JSON here instead of bench/results/table1.json "
                             "(the store and the pipeline are then imported only to draw "
                             "pre-training sentences: the run needs torch and the trainer).")
    args = parser.parse_args()
    models = args.models.split(",")
    if unknown := set(models) - set(MODELS):
        parser.error(f"unknown --models {', '.join(sorted(unknown))}: choose of {', '.join(MODELS)}")
    runs = args.runs or Path(tempfile.mkdtemp(prefix="table1-"))
    corpus = runs / "corpus"
    counts = merge(args.corpus, corpus)
    sizes = {"embedding": args.embedding, "hidden": args.hidden, "dropout": args.dropout,
             "batch_size": args.batch_size, "max_minutes": args.max_minutes,
             "patience": args.patience, "threads": args.threads, "seed": args.seed}
    options = DecodeOptions(beam=args.beam)
    pretrain_corpus, pretraining = corpus, {"sentences": "the train split's"}
    if args.pretrain_store and {"autoencoder", "pointer-pretrained"} & set(models):
        pretrain_corpus = runs / "pretrain-corpus"
        started = time.perf_counter()
        pretraining = pretraining_corpus(args.pretrain_store, corpus, args.pretrain_sentences,
                                         args.seed, pretrain_corpus)
        pretraining["draw_seconds"] = round(time.perf_counter() - started, 1)
    configs = {
        "seq2seq": (corpus, TrainConfig(kind="seq2seq", max_epochs=args.epochs, **sizes), None),
        "pointer": (corpus, TrainConfig(kind="pointer", max_epochs=args.epochs, **sizes), None),
        "autoencoder": (pretrain_corpus, TrainConfig(
            kind="autoencoder", max_epochs=args.pretrain_epochs, **sizes), None),
        "pointer-pretrained": (corpus, TrainConfig(kind="pointer", max_epochs=args.epochs, **sizes),
                               runs / "autoencoder" / "best.pt"),
    }
    rows = {}
    for name in models:
        data, config, init_from = configs[name]
        rows[name] = run(data, runs, name, config, options, init_from)
        rows[name]["samples"] = samples(runs / f"{name}-test.jsonl", args.seed)
    result = {
        "card": torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu",
        "corpora": [str(c) for c in args.corpus], "pairs": counts, "runs": str(runs),
        "settings": {**sizes, "max_epochs": args.epochs, "pretrain_epochs": args.pretrain_epochs,
                     "beam": args.beam, "lr": 1e-3, "clip": 4.0, "vocab_size": 30000,
                     "max_len": 70},
        "pretraining": pretraining,
        "table": rows, "input copied unchanged": identity_scores(corpus),
        "paper": {"seq2seq+attention": {"rouge1": 44.39, "rouge2": 31.71, "rougeL": 41.36},
                  "pointer": {"rouge1": 60.66, "rouge2": 50.21, "rougeL": 56.64}},
    }
    if args.result:
        args.result.write_text(json.dumps(result, indent=2) + "\n")
    else:
        from common import report

        report("table1", result)


if __name__ == "__main__":
    main()
