"""parawire.toml documents every setting with the models' default: no drift either way."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from parawire import config
from parawire.config import Settings

DOCS = Path(config.__file__).with_name("parawire.toml")


def _defaults(values: BaseModel, prefix: str = "") -> dict[str, Any]:
    """Each setting by dotted key (sections opened, dict settings kept whole), with its default
    as TOML writes it."""
    found: dict[str, Any] = {}
    for name, field in type(values).model_fields.items():
        if field.exclude:  # not a setting (Settings.config_file)
            continue
        value = getattr(values, name)
        if isinstance(value, BaseModel):
            found.update(_defaults(value, f"{prefix}{name}."))
        else:
            found[prefix + name] = str(value) if isinstance(value, Path) else value
    return found


def _documented(table: dict[str, Any], settings: set[str], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in table.items():
        dotted = prefix + key
        if isinstance(value, dict) and dotted not in settings:
            yield from _documented(value, settings, dotted + ".")
        else:
            yield dotted, value


DEFAULTS = _defaults(Settings.model_construct())
DOCUMENTED = dict(_documented(tomllib.loads(DOCS.read_text()), set(DEFAULTS)))


def test_every_documented_key_is_a_setting_with_the_models_default():
    wrong = [f"{key}: no such setting" for key in DOCUMENTED if key not in DEFAULTS]
    wrong += [f"{key}: documented {value!r}, default {DEFAULTS[key]!r}"
              for key, value in DOCUMENTED.items() if key in DEFAULTS and DEFAULTS[key] != value]
    assert not wrong, f"parawire.toml disagrees with parawire/config.py: {wrong}"


def test_every_setting_is_documented():
    missing = sorted(set(DEFAULTS) - set(DOCUMENTED))
    assert not missing, f"settings missing from parawire.toml: {missing}"
