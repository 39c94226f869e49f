"""Table I of the paper on our own corpus: ROUGE-1/2/L F1 (and BLEU) on a held-out test split
for seq2seq+attention, the pointer-generator, and the pointer-generator started from an
autoencoder pre-trained on the same training sentences.

    .venv/bin/python bench/ecbplus_corpus.py --out data/ecbplus-corpus
    .venv/bin/parawire demo            # writes data/corpus/run-1-jsonl
    .venv/bin/python bench/table1.py --corpus data/ecbplus-corpus --corpus data/corpus/run-1-jsonl

Several --corpus folders are concatenated split by split (their sentences come from
different articles, so no sentence crosses splits). Every model gets the same sizes,
seed and epoch budget; early stopping picks the checkpoint scored.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from common import report

from parawire.trainer.corpus import read_split
from parawire.trainer.decoding import DecodeOptions
from parawire.trainer.evaluation import evaluate
from parawire.trainer.metrics import score_all
from parawire.trainer.training import TrainConfig, train

SPLITS = ("train", "valid", "test")


def merge(corpora: list[Path], out: Path) -> dict[str, int]:
    """Concatenate the corpora's splits into out; returns the pairs per split."""
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for split in SPLITS:
        lines = [line for corpus in corpora
                 for line in (corpus / f"{split}.jsonl").read_text().splitlines() if line.strip()]
        (out / f"{split}.jsonl").write_text("".join(line + "\n" for line in lines))
        counts[split] = len(read_split(out, split))
    return counts


def run(corpus: Path, runs: Path, name: str, config: TrainConfig, options: DecodeOptions,
        init_from: Path | None = None) -> dict:
    """Train one model and score its best checkpoint on the test split."""
    started = time.perf_counter()
    summary = train(corpus, runs / name, config, init_from=init_from)
    seconds = time.perf_counter() - started
    scores = evaluate(runs / name / "best.pt", "test", corpus, options,
                      predictions=runs / f"{name}-test.jsonl", threads=config.threads)
    return {"device": summary["device"], "epochs": summary["epochs"], "best_epoch": summary["best_epoch"],
            "best_valid_loss": round(summary["best_valid_loss"], 4),
            "train_seconds": round(seconds, 1),
            **{k: scores[k] for k in ("rouge1", "rouge2", "rougeL", "bleu")}}


def identity_scores(corpus: Path) -> dict[str, float]:
    """Scores of the inputs themselves as outputs: how much of each target is already there."""
    pairs = read_split(corpus, "test")
    return score_all([" ".join(p.source) for p in pairs], [" ".join(p.target) for p in pairs])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", required=True)
    parser.add_argument("--runs", type=Path, help="Where the runs go (default: a temp folder).")
    parser.add_argument("--embedding", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--batch-size", type=int, default=8,
                        help="Small batches: a few hundred pairs give few updates per epoch.")
    parser.add_argument("--epochs", type=int, default=30, help="Most epochs per model.")
    parser.add_argument("--pretrain-epochs", type=int, default=10)
    parser.add_argument("--patience", type=int, default=10)
    parser.add_argument("--beam", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = args.runs or Path(tempfile.mkdtemp(prefix="table1-"))
    corpus = runs / "corpus"
    counts = merge(args.corpus, corpus)
    sizes = {"embedding": args.embedding, "hidden": args.hidden, "dropout": args.dropout,
             "batch_size": args.batch_size,
             "patience": args.patience, "threads": args.threads, "seed": args.seed}
    options = DecodeOptions(beam=args.beam)
    rows = {
        "seq2seq+attention": run(corpus, runs, "seq2seq", TrainConfig(
            kind="seq2seq", max_epochs=args.epochs, **sizes), options),
        "pointer": run(corpus, runs, "pointer", TrainConfig(
            kind="pointer", max_epochs=args.epochs, **sizes), options),
    }
    pretrain = run(corpus, runs, "autoencoder", TrainConfig(
        kind="autoencoder", max_epochs=args.pretrain_epochs, **sizes), options)
    rows["pretrained pointer"] = {
        **run(corpus, runs, "pointer-pretrained", TrainConfig(
            kind="pointer", max_epochs=args.epochs, **sizes), options,
            init_from=runs / "autoencoder" / "best.pt"),
        "pretraining": pretrain,
    }
    report("table1", {
        "corpora": [str(c) for c in args.corpus], "pairs": counts, "runs": str(runs),
        "settings": {**sizes, "max_epochs": args.epochs, "pretrain_epochs": args.pretrain_epochs,
                     "beam": args.beam, "lr": 1e-3, "clip": 4.0},
        "table": rows, "input copied unchanged": identity_scores(corpus),
        "paper": {"seq2seq+attention": {"rouge1": 44.39, "rouge2": 31.71, "rougeL": 41.36},
                  "pointer": {"rouge1": 60.66, "rouge2": 50.21, "rougeL": 56.64}},
    })


if __name__ == "__main__":
    main()
