"""parawire paraphrase / evaluate-generators / augment with DiPS, over-generate-and-prune and rank, on
tiny forward and backward models trained here (USE cosine from the installed encoder)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_trainer_cli import TINY, parawire
from tests.factories import write_paraphrase_corpus

pytest.importorskip("torch")


def test_dips_overgen_and_rank_paraphrase_and_evaluate(tmp_path):
    corpus, forward, backward = tmp_path / "corpus", tmp_path / "forward", tmp_path / "backward"
    write_paraphrase_corpus(corpus)
    for direction, out in [("forward", forward), ("backward", backward)]:
        trained = parawire("train", "--direction", direction, "--corpus", str(corpus), "--out",
                           str(out), "--epochs", "8", *TINY)
        assert trained.returncode == 0, trained.stderr
    models = ["--checkpoint", str(forward / "best.pt"), "--backward", str(backward / "best.pt")]
    dips = parawire("paraphrase", *models, "--generator", "dips", "-n", "3", "--no-annotate",
                    "Bob met Alice in Paris.")
    assert dips.returncode == 0, dips.stderr
    outputs = json.loads(dips.stdout)["outputs"]
    assert 1 <= len(outputs) <= 3 and all(o["origin"] == "dips" for o in outputs)
    assert len({o["text"] for o in outputs}) == len(outputs)

    table = parawire("evaluate-generators", *models, "--generators", "dips,overgen,rank", "-n", "3",
                     "--limit", "3", "--no-annotate")
    assert table.returncode == 0, table.stderr
    report = json.loads(table.stdout)["generators"]
    assert set(report) == {"dips", "overgen", "rank"}
    for name in ("overgen", "rank"):
        pool = report[name]["pool"]
        removed = sum(v for k, v in pool.items() if k.startswith("removed_"))
        assert pool["pooled"] == removed + pool["kept"] > 0, pool
    assert report["dips"]["inputs"] == 3 and report["dips"]["outputs_per_input"] > 0

    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"text": "Bob met Alice in Paris.", "label": 1}) + "\n"
                    + json.dumps({"text": "The mayor spoke on Monday.", "label": 0}) + "\n")
    out = tmp_path / "augmented.jsonl"
    done = parawire("augment", "--input", str(rows), "--text-field", "text", "-n", "2",
                    "--generator", "dips", "--no-annotate", "--output", str(out), *models[:2])
    assert done.returncode == 0, done.stderr
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert written[0] == {"text": "Bob met Alice in Paris.", "label": 1}
    copies = [r for r in written if "augmented_from" in r]
    assert copies and len(written) == 2 + len(copies) <= 6
    assert all(r["label"] == [1, 0][r["augmented_from"]] and r["origin"] == "dips" for r in copies)
    bad = parawire("augment", "--input", str(rows), "--text-field", "body", *models[:2])
    assert bad.returncode == 1 and "no text in field 'body'" in bad.stderr
