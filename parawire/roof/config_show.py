"""`parawire config show`: the effective settings as a TOML file would hold them."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from parawire.config import Settings

_HIDDEN = "<hidden>"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def effective_toml(settings: Settings) -> str:
    """The merged settings as TOML (loadable as a config file), with passwords in URLs and
    the serve token replaced by a placeholder."""
    values = settings.model_dump(mode="json")
    for section, key in (("store", "url"), ("broker", "url"), ("broker", "result_backend"),
                         ("index", "url")):
        values[section][key] = _without_password(values[section][key])
    if values["serve"]["token"]:
        values["serve"]["token"] = _HIDDEN
    source = settings.config_file or "no config file"
    lines = [f"# parawire's effective configuration: defaults < {source} < PARAWIRE_* variables"]
    lines += [f"{_key(k)} = {_value(v)}" for k, v in values.items() if not isinstance(v, dict)]
    for name, table in values.items():
        if isinstance(table, dict):
            _table(lines, _key(name), table)
    return "\n".join(lines) + "\n"


def _table(lines: list[str], name: str, table: dict[str, Any]) -> None:
    lines += ["", f"[{name}]"]
    lines += [f"{_key(k)} = {_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    for key, value in table.items():
        if isinstance(value, dict):
            _table(lines, f"{name}.{_key(key)}", value)


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", f":{_HIDDEN}@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
