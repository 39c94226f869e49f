"""What an export's datasheet says about the pipeline that annotated a language."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from parawire.config import NlpConfig
from parawire.nlp.training.train import META_KEY

_DEV_SCORES = ("pos_acc", "lemma_acc", "dep_las", "sents_f", "ents_f")


def pipeline_description(config: NlpConfig, language: str) -> dict[str, Any]:
    """The backend, model, name and version of `language`'s pipeline, with the training data
    and dev/test scores that a pipeline trained here keeps in its meta.json."""
    if config.backend_for(language) == "stanza":
        return {"backend": "stanza", "package": config.stanza_packages.get(language, "default")}
    model = config.models.get(language, "")
    meta = _meta(model)
    training = dict(meta.get(META_KEY, {}))
    test = training.pop("test", None)
    performance = meta.get("performance", {})
    return {
        "backend": "spacy", "model": model, "name": meta.get("name", ""),
        "version": meta.get("version", ""), "spacy_version": meta.get("spacy_version", ""),
        "sources": [source.get("name", "") for source in meta.get("sources", [])
                    if isinstance(source, dict)],
        **({"training": training} if training else {}),
        "dev_scores": {key: round(performance[key], 4) for key in _DEV_SCORES
                       if isinstance(performance.get(key), float)},
        **({"test_scores": test} if test else {}),
    }


def _meta(model: str) -> dict[str, Any]:
    """The meta.json of a pipeline folder or an installed package ({} when there is none)."""
    folder = Path(model).expanduser()
    if not folder.is_dir() and model.isidentifier():
        spec = importlib.util.find_spec(model)
        locations = spec.submodule_search_locations if spec else None
        folder = Path(next(iter(locations))) if locations else folder
    path = folder / "meta.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))
