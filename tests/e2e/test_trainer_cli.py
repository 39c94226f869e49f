"""parawire train / evaluate / paraphrase as a user runs them, on a tiny corpus."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.factories import write_paraphrase_corpus

pytest.importorskip("torch")

TINY = ["--vocab-size", "13", "--embedding", "16", "--hidden", "32", "--batch-size", "8",
        "--lr", "0.01", "--threads", "1", "--no-progress"]


def parawire(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "parawire", *args], cwd=ROOT, text=True,
                          input=stdin, capture_output=True, env={**os.environ, **env}, timeout=600)


# sample-cluster with 5 × 4 samples instead of 5 × 30: the same code, less CPU.
FEW_SAMPLES = {"PARAWIRE_GENERATE__SAMPLES_PER_SET": "4"}


def test_train_resume_evaluate_and_paraphrase(tmp_path):
    corpus, out = tmp_path / "corpus", tmp_path / "run"
    write_paraphrase_corpus(corpus)
    first = parawire("train", "--model", "pointer", "--corpus", str(corpus), "--out", str(out),
                     "--epochs", "12", *TINY)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["epochs"] == 12 and summary["train_examples"] == 48
    # Asking for more epochs resumes the run in the same folder.
    more = parawire("train", "--model", "pointer", "--corpus", str(corpus), "--out", str(out),
                    "--epochs", "25", *TINY)
    assert more.returncode == 0, more.stderr
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [m["epoch"] for m in metrics] == list(range(1, 26))
    assert {"train_loss", "valid_loss", "tokens_per_s", "best_epoch"} <= set(metrics[0])

    checkpoint = str(out / "best.pt")
    scored = parawire("evaluate", "--checkpoint", checkpoint, "--split", "test", "--beam", "3",
                      "--predictions", str(tmp_path / "predictions.jsonl"))
    assert scored.returncode == 0, scored.stderr
    scores = json.loads(scored.stdout)
    assert scores["examples"] == 8 and scores["split"] == "test"
    assert scores["rouge1"] > 90 and scores["rouge2"] > 80 and scores["rougeL"] > 90
    assert 0 < scores["bleu"] <= 100
    predictions = [json.loads(line) for line in
                   (tmp_path / "predictions.jsonl").read_text().splitlines()]
    assert len(predictions) == 8 and {"input", "target", "output"} <= set(predictions[0])

    one = parawire("paraphrase", "--checkpoint", checkpoint, "-n", "1",
                   "Quixote met Zanzibar in Bolognia.")
    assert one.returncode == 0, one.stderr
    (record,) = [json.loads(line) for line in one.stdout.splitlines()]
    assert record["input"] == "Quixote met Zanzibar in Bolognia."
    # The model writes lower case; the annotator's names and the first word get their casing back.
    assert [o["text"] for o in record["outputs"]] == ["In Bolognia, Quixote met with Zanzibar."]
    assert record["outputs"][0]["origin"] == "beam"
    piped = parawire("paraphrase", "--checkpoint", checkpoint, "--beam", "1", "-n", "1",
                     stdin="Ottoline visited Kyoto with Marguerite.\n\nBob met Alice in Paris.\n")
    assert piped.returncode == 0, piped.stderr
    assert [json.loads(line)["outputs"][0]["text"] for line in piped.stdout.splitlines()] == [
        "Marguerite and Ottoline went to Kyoto.", "In Paris, Bob met with Alice."]


def test_backward_model_sample_cluster_and_generator_evaluation(tmp_path):
    corpus, forward, backward = tmp_path / "corpus", tmp_path / "forward", tmp_path / "backward"
    write_paraphrase_corpus(corpus)
    trained = parawire("train", "--corpus", str(corpus), "--out", str(forward), "--epochs", "12", *TINY)
    assert trained.returncode == 0, trained.stderr
    checkpoint = str(forward / "best.pt")
    trained = parawire("train", "--direction", "backward", "--corpus", str(corpus), "--out",
                       str(backward), "--epochs", "12", *TINY)
    assert trained.returncode == 0, trained.stderr
    sampled = parawire("paraphrase", "--checkpoint", checkpoint, "--backward",
                       str(backward / "best.pt"), "--generator", "sample-cluster", "-n", "3",
                       "Bob met Alice in Paris.", **FEW_SAMPLES)
    assert sampled.returncode == 0, sampled.stderr
    outputs = json.loads(sampled.stdout)["outputs"]
    assert 1 <= len(outputs) <= 3
    assert all(o["origin"].startswith("sample-cluster/") and "dual" in o["scores"] for o in outputs)
    wrong = parawire("paraphrase", "--checkpoint", str(backward / "best.pt"), "Bob met Alice.")
    assert wrong.returncode == 1 and "backward model" in wrong.stderr

    table = parawire("evaluate-generators", "--checkpoint", checkpoint, "--backward",
                     str(backward / "best.pt"), "--generators", "beam,sample-cluster", "-n", "3",
                     "--limit", "3", "--no-annotate", **FEW_SAMPLES,
                     # a fixed threshold that keeps every sample of this 13-word model
                     PARAWIRE_GENERATE__SCORE_THRESHOLD="1000")
    assert table.returncode == 0, table.stderr
    report = json.loads(table.stdout)["generators"]
    assert set(report) == {"beam", "sample-cluster"}
    for name in report:
        assert report[name]["inputs"] == 3 and len(report[name]["per_rank"]) == 3
        assert 0 <= report[name]["vs_input"]["use_cosine"] <= 1
    assert report["beam"]["vs_reference"]["pairs"] == 3
    # sample-cluster may return nothing for an input whose samples all sit in its cluster.
    assert 1 <= report["sample-cluster"]["vs_reference"]["pairs"] <= 3
    assert report["sample-cluster"]["threshold_drop_rate"] == 0


def test_bad_corpus_and_checkpoint_give_one_line_errors(tmp_path):
    (tmp_path / "empty").mkdir()
    missing = parawire("train", "--corpus", str(tmp_path / "empty"), "--out", str(tmp_path / "o"))
    assert missing.returncode == 1
    assert missing.stderr.startswith("parawire: error:") and "train.jsonl" in missing.stderr
    assert len(missing.stderr.splitlines()) == 1
    absent = parawire("paraphrase", "--checkpoint", str(tmp_path / "none.pt"), "hello")
    assert absent.returncode == 1 and "checkpoint not found" in absent.stderr
