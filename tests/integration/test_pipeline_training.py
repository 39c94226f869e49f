"""A spaCy pipeline trained here from a UD treebank: CLI, scores, loading by path, errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.nlp import annotator_for
from parawire.nlp.spacy_annotator import load_spacy_model
from parawire.roof.cli import main
from tests.conftest import first_sentences


@pytest.fixture(scope="module")
def trained(shared_data, tmp_path_factory):
    """A pipeline trained and scored through the CLI, on 150 Spanish sentences, 1 epoch."""
    folder = tmp_path_factory.mktemp("cli-pipeline")
    train = first_sentences(shared_data / "ud/es_gsd/es_gsd-ud-dev.conllu", 150,
                            folder / "train.conllu")
    config = folder / "parawire.toml"
    config.write_text("[nlp.training]\nmax_epochs = 1\neval_frequency = 10\nwidth = 32\n"
                      "depth = 1\n", encoding="utf-8")
    runner = CliRunner()
    args = ["--config", str(config), "nlp", "train-pipeline", "--lang", "es", "--train",
            str(train), "--out", str(folder / "es"), "--max-minutes", "2"]
    first = runner.invoke(main, args)
    again = runner.invoke(main, args)  # re-running replaces the pipeline
    scored = runner.invoke(main, ["--config", str(config), "nlp", "evaluate-pipeline", "--model",
                                  str(folder / "es"), "--test",
                                  str(shared_data / "ud/es_gsd/es_gsd-ud-test.conllu")])
    return folder, first, again, scored


def _report(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{\n"):])


def test_train_pipeline_reports_its_data_and_dev_scores(trained):
    folder, first, again, _ = trained
    report = _report(again)
    assert _report(first)["train_sentences"] == report["train_sentences"]
    assert report["train_sentences"] + report["dev_sentences"] == 150
    assert 0 < report["dev_scores"]["pos_acc"] <= 1
    assert report["use_it"] == f'set nlp.models.es = "{folder / "es"}"'
    meta = json.loads((folder / "es" / "meta.json").read_text())
    assert meta["name"] == "parawire_es_ud"
    assert meta["parawire"]["train"] == [str(folder / "train.conllu")]
    boundaries = report["sentence_boundaries"]
    assert meta["parawire"]["sentence_boundaries"] == boundaries
    chosen = boundaries[f"{boundaries['by']}_f"]
    assert chosen == max(boundaries["parser_f"], boundaries["sentencizer_f"])


def test_a_small_treebank_pipeline_splits_whole_sentences(trained):
    """150 sentences and one epoch teach the parser no boundaries: the rule chosen on the
    dev data splits the test treebank's text into its sentences."""
    folder, first, _, scored = trained
    assert _report(first)["sentence_boundaries"]["by"] == "sentencizer"
    assert _report(scored)["sentence_f"] > 0.8
    doc = load_spacy_model(str(folder / "es"), "es")(
        "El Banco de España publicó ayer su informe anual, que llega tarde. Nadie lo esperaba.")
    assert [s.text for s in doc.sents] == [
        "El Banco de España publicó ayer su informe anual, que llega tarde.", "Nadie lo esperaba."]


def test_evaluate_pipeline_scores_the_test_treebank_and_records_them(trained):
    folder, _, _, scored = trained
    scores = _report(scored)
    assert scores["sentences"] > 400
    assert scores["tokens"] > 0.95  # the language's tokenizer matches the treebank's tokens
    assert 0.3 < scores["upos"] < 1 and 0 < scores["lemma"] < 1 and 0 <= scores["las"] < 1
    meta = json.loads((folder / "es" / "meta.json").read_text())
    assert meta["parawire"]["test"]["upos"] == scores["upos"]


def test_the_pipeline_loads_by_path_through_nlp_models(trained, tmp_path):
    folder, _, _, _ = trained
    settings = load_settings(nlp={"models": {"es": str(folder / "es")}})
    annotator = annotator_for(settings, "es")
    assert annotator.nlp.meta["name"] == "parawire_es_ud"
    assert annotator.nlp.pipe_names == ["sentencizer", "tok2vec", "morphologizer",
                                        "trainable_lemmatizer", "parser"]
    doc = annotator.nlp("El Banco de España publicó ayer su informe anual.")
    assert [t.text for t in doc][:3] == ["El", "Banco", "de"]
    assert all(t.pos_ and t.lemma_ and t.dep_ for t in doc)


def test_a_missing_pipeline_names_the_train_command(tmp_path):
    with pytest.raises(ParawireError, match=r"parawire nlp train-pipeline --lang es"):
        load_spacy_model(str(tmp_path / "nowhere"), "es")


def test_bad_treebank_and_foreign_out_folder_are_one_line_errors(tmp_path):
    runner = CliRunner()
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tciao\n", encoding="utf-8")
    result = runner.invoke(main, ["nlp", "train-pipeline", "--lang", "it", "--train", str(bad),
                                  "--out", str(tmp_path / "m")])
    assert result.exit_code == 1
    assert f"{bad} is not a CoNLL-U file" in result.output
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    good = tmp_path / "good.conllu"
    good.write_text("1\tciao\tciao\tINTJ\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    result = runner.invoke(main, ["nlp", "train-pipeline", "--lang", "it", "--train",
                                  str(good), "--out", str(mine)])
    assert result.exit_code == 1 and "not a parawire pipeline" in result.output
    assert (mine / "notes.txt").read_text() == "keep me"
    result = runner.invoke(main, ["nlp", "train-pipeline", "--lang", "xx1", "--train",
                                  str(good), "--out", str(tmp_path / "m")])
    assert result.exit_code == 1 and "spaCy has no language 'xx1'" in result.output
