"""A sentence-transformers BERT-style model run by onnxruntime, its weights as they are
(fp32) or quantised to int8: exported once from the local folder (beside it in the model
cache), then batches sorted by length, mean-pooled and normalised as the model's own pooling
does (bench/embed_speed.py measures both against plain `model.encode`).

The int8 export quantises the matrix weights per output channel; its activations are
quantised per forward pass (scaled together), so a text run in a batch would vary with its
batchmates: its embedder runs each text alone, and a text always gets the same vector
(cosine to the fp32 vector 0.98–1.0 on AllSides sentences). fp32 has no such dependence
(padding is masked). Equal texts within one call are encoded once and get equal rows."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from parawire.errors import ParawireError
from parawire.nlp.embedding import TokenVectors

EXPORTED = "model.onnx"
QUANTISED = "model.int8-per-channel.onnx"


def exported_onnx(folder: Path, target: Path, quantised: bool) -> Path:
    """The ONNX graph of the transformer in `folder` (fp32, or int8 weights), exported into
    `target` once (into a temporary folder renamed into place, so an interrupted export
    leaves nothing)."""
    model_path = target / (QUANTISED if quantised else EXPORTED)
    if model_path.is_file():
        return model_path
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()  # a command's output stays its own lines
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".exporting-", dir=target.parent))
    try:
        model = _token_embeddings_module(AutoModel.from_pretrained(
            str(folder), local_files_only=True, attn_implementation="eager").eval())
        ids = torch.ones((2, 8), dtype=torch.long)
        names = ["input_ids", "attention_mask", "token_type_ids"]
        axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "token_embeddings"]}
        # the tracer warns about how it records shapes: nothing a user can act on
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(model, (ids, ids, torch.zeros_like(ids)),
                              str(staging / EXPORTED), input_names=names,
                              output_names=["token_embeddings"], dynamic_axes=axes,
                              opset_version=17, dynamo=False)
        if quantised:
            # per output channel, matrix weights only: cosine to fp32 0.992 on average
            # against 0.958 for one scale a tensor, at the same speed
            silenced = logging.root.manager.disable
            logging.disable(logging.WARNING)  # its advice on pre-processing, on the root logger
            try:
                quantize_dynamic(str(staging / EXPORTED), str(staging / QUANTISED),
                                 weight_type=QuantType.QInt8, per_channel=True,
                                 extra_options={"MatMulConstBOnly": True})
            finally:
                logging.disable(silenced)
            (staging / EXPORTED).unlink()
        try:
            staging.rename(target)
        except OSError:  # another process exported it first
            if not model_path.is_file():
                raise
    except (OSError, RuntimeError, ValueError) as exc:
        raise ParawireError(f"cannot export {folder} to ONNX in {target}: {exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return model_path


def _token_embeddings_module(model):
    import torch

    class TokenEmbeddings(torch.nn.Module):
        """The transformer called by keyword, returning its last hidden state only."""

        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    return TokenEmbeddings()


class OnnxEmbedder:
    """Mean-pooled, normalised sentence vectors and contextual token vectors from an ONNX
    export (fp32 or int8 weights) of a sentence-transformers folder (BERT-style: mean
    pooling, no dense head)."""

    def __init__(self, folder: Path, onnx_dir: Path, name: str, version: str,
                 batch_size: int = 64, threads: int = 0, quantised: bool = True) -> None:
        from onnxruntime import GraphOptimizationLevel, InferenceSession, SessionOptions
        from tokenizers import Tokenizer

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            config = json.loads((folder / "sentence_bert_config.json").read_text())
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as exc:  # tokenizers raises its own Exception type
            raise ParawireError(f"cannot load the sentence model in {folder}: {exc}") from None
        self.max_tokens = int(config.get("max_seq_length", 256))
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.no_padding()
        options = SessionOptions()
        options.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        self.session = InferenceSession(str(exported_onnx(folder, onnx_dir, quantised)), options,
                                        providers=["CPUExecutionProvider"])
        self.name, self.version, self.batch_size = name, version, batch_size
        self.dimensions = int(json.loads((folder / "config.json").read_text())["hidden_size"])
        self._special = {self.tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]", "[PAD]")}

    def _batches(self, texts: Sequence[str]):
        """(positions, ids, mask, token embeddings) per batch of texts of similar length."""
        encoded = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))
        for start in range(0, len(order), self.batch_size):
            chosen = order[start:start + self.batch_size]
            width = max(len(encoded[i].ids) for i in chosen)
            ids = np.zeros((len(chosen), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(chosen):
                ids[row, :len(encoded[i].ids)] = encoded[i].ids
                mask[row, :len(encoded[i].ids)] = 1
            (output,) = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                                "token_type_ids": np.zeros_like(ids)})
            yield chosen, ids, mask, output

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised float32 sentence vectors, one row per text (equal texts encoded once)."""
        distinct = list(dict.fromkeys(texts))
        vectors, _ = self._run(distinct, with_tokens=False)
        row = {text: i for i, text in enumerate(distinct)}
        return vectors[[row[text] for text in texts]]

    def vectors_and_tokens(self, texts: Sequence[str]
                           ) -> tuple[np.ndarray, list[TokenVectors]]:
        """Sentence vectors and each text's word pieces with their normalised contextual
        vectors, from one pass of the model."""
        return self._run(texts, with_tokens=True)

    def _run(self, texts: Sequence[str], with_tokens: bool
             ) -> tuple[np.ndarray, list[TokenVectors]]:
        vectors = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        found: list[TokenVectors] = [TokenVectors([], np.zeros((0, self.dimensions),
                                                                dtype=np.float32))] * len(texts)
        for chosen, ids, mask, output in self._batches(texts):
            vectors[chosen] = ((output * mask[..., None]).sum(axis=1)
                               / mask.sum(axis=1, keepdims=True))
            for row, i in enumerate(chosen if with_tokens else ()):
                keep = [j for j in range(int(mask[row].sum())) if ids[row, j] not in self._special]
                words = np.asarray(output[row, keep], dtype=np.float32)
                words /= np.maximum(np.linalg.norm(words, axis=1, keepdims=True), 1e-12)
                found[i] = TokenVectors([self.tokenizer.id_to_token(int(ids[row, j]))
                                         for j in keep], words)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return vectors, found

    def truncated(self, texts: Sequence[str]) -> int:
        """How many of these texts are longer than the model reads (cut at max_seq_length)."""
        return sum(1 for e in self.tokenizer.encode_batch(list(texts)) if e.overflowing)
