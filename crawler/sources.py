"""The sources file: outlets to crawl and topic keyword groups per language."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, ValidationError

from parawire.errors import ParawireError

TOPICS_FILE = Path(__file__).with_name("topics.toml")
DEFAULT_SOURCES = Path(__file__).with_name("sources.toml")


class Outlet(BaseModel):
    """One news outlet and where its article links are listed."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    language: str = Field(min_length=2, max_length=8)
    domains: list[str] = Field(min_length=1)
    feeds: list[HttpUrl] = Field(default_factory=list)
    sitemaps: list[HttpUrl] = Field(default_factory=list)


class Sources(BaseModel):
    """Every outlet of a sources file and the topic keyword groups in force."""

    model_config = ConfigDict(extra="forbid")

    outlets: list[Outlet] = Field(default_factory=list, alias="outlet")
    topics: dict[str, dict[str, list[str]]] = Field(default_factory=dict)


def load_sources(path: Path) -> Sources:
    """Read a sources file; errors name the outlet and the field."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParawireError(f"cannot read sources file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ParawireError(f"sources file {path} is not valid TOML: {exc}") from None
    topics = tomllib.loads(TOPICS_FILE.read_text(encoding="utf-8"))
    for language, groups in raw.get("topics", {}).items():
        topics.setdefault(language, {}).update(groups)
    raw["topics"] = topics
    try:
        sources = Sources.model_validate(raw)
    except ValidationError as exc:
        raise ParawireError(f"sources file {path}: {_describe(exc, raw)}") from None
    names = [outlet.name for outlet in sources.outlets]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ParawireError(f"sources file {path}: outlet {duplicates[0]!r} is listed twice")
    for outlet in sources.outlets:
        if not outlet.feeds and not outlet.sitemaps:
            raise ParawireError(
                f"sources file {path}: outlet {outlet.name!r} has neither feeds nor sitemaps"
            )
    return sources


def _describe(exc: ValidationError, raw: dict) -> str:
    error = exc.errors()[0]
    loc = list(error["loc"])
    where = ".".join(str(part) for part in loc)
    if loc[:1] == ["outlet"] and len(loc) >= 2 and isinstance(loc[1], int):
        outlets = raw.get("outlet", [])
        name = outlets[loc[1]].get("name", f"#{loc[1] + 1}") if loc[1] < len(outlets) else "?"
        field = ".".join(str(part) for part in loc[2:]) or "outlet"
        where = f"outlet {name!r}, field {field!r}"
    return f"{where}: {error['msg']}"
