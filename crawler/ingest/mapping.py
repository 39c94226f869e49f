"""Which keys of an archive's records hold which article field: ingest.columns, a
--mapping TOML file's [fields] table over it, and --field flags over both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parawire.config import read_toml_file
from parawire.errors import ParawireError

ARTICLE_FIELDS = ("url", "source", "published", "title", "text", "language", "author", "topic")
FieldMap = dict[str, list[str]]


def field_map(columns: dict[str, list[str]], mapping_file: str | None = None,
              flags: list[str] | tuple[str, ...] = ()) -> FieldMap:
    """The keys that may hold each article field, the first present in a record winning."""
    chosen = {name: list(columns.get(name, [])) for name in ARTICLE_FIELDS}
    if mapping_file:
        chosen.update(_mapping_file(Path(mapping_file)))
    for flag in flags:
        name, sep, keys = flag.partition("=")
        name = name.strip()
        if not sep or not keys.strip():
            raise ParawireError(f"--field {flag!r}: write FIELD=KEY (e.g. --field source=outlet)")
        chosen[_known(name, f"--field {flag!r}")] = [k.strip() for k in keys.split(",")]
    return chosen


def pick(record: dict[str, Any], keys: list[str]) -> tuple[str, Any]:
    """The first of `keys` present (not null) in a record and its value; ("", None) if none."""
    for key in keys:
        value = record.get(key)
        if value is not None:
            return key, value
    return "", None


def _known(name: str, where: str) -> str:
    if name not in ARTICLE_FIELDS:
        raise ParawireError(f"{where}: unknown article field {name!r} "
                            f"(fields: {', '.join(ARTICLE_FIELDS)})")
    return name


def _mapping_file(path: Path) -> FieldMap:
    raw = read_toml_file(path, "mapping file")
    table = raw.get("fields")
    if not isinstance(table, dict):
        raise ParawireError(f"mapping file {path}: needs a [fields] table (e.g. source = \"outlet\")")
    chosen: FieldMap = {}
    for name, keys in table.items():
        keys = [keys] if isinstance(keys, str) else keys
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ParawireError(f"mapping file {path}: fields.{name} must be a key or a list of keys")
        chosen[_known(name, f"mapping file {path}")] = keys
    return chosen
