"""The sources file: outlets to crawl and topic keyword groups per language."""

from __future__ import annotations

import re
import tomllib
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, ValidationError, field_validator

from parawire.config import read_toml_file
from parawire.errors import ParawireError

TOPICS_FILE = Path(__file__).with_name("topics.toml")
DEFAULT_SOURCES = Path(__file__).with_name("sources.toml")
TOPICS = ("news", "culture", "economics", "nature", "politics", "society", "sports", "technology")


class Section(BaseModel):
    """A section (listing) page whose links matching `article_pattern` are articles."""

    model_config = ConfigDict(extra="forbid")

    url: HttpUrl
    article_pattern: str = Field(min_length=1)
    # How many pages of the section to follow through its "next page" links.
    max_pages: int = Field(1, ge=1, le=100)

    @field_validator("article_pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {exc}") from None
        return value


class Outlet(BaseModel):
    """One news outlet and where its article links are listed."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    language: str = Field(min_length=2, max_length=8)
    domains: list[str] = Field(min_length=1)
    feeds: list[HttpUrl] = Field(default_factory=list)
    sitemaps: list[HttpUrl] = Field(default_factory=list)
    sections: list[Section] = Field(default_factory=list)
    # Publication dates before this day are implausible for the outlet.
    oldest: date = date(1995, 1, 1)

    def allows(self, url: str) -> bool:
        """Whether a URL's host is one of the outlet's domains or a subdomain of one."""
        host = (urlsplit(url).hostname or "").lower()
        return any(host == d or host.endswith("." + d) for d in self.domains)


class Sources(BaseModel):
    """Every outlet of a sources file and the topic keyword groups in force."""

    model_config = ConfigDict(extra="forbid")

    outlets: list[Outlet] = Field(default_factory=list, alias="outlet")
    topics: dict[str, dict[str, list[str]]] = Field(default_factory=dict)

    def outlet(self, name: str) -> Outlet:
        """The outlet of that name (a ParawireError naming the known ones otherwise)."""
        for outlet in self.outlets:
            if outlet.name == name:
                return outlet
        known = ", ".join(o.name for o in self.outlets)
        raise ParawireError(f"unknown outlet {name!r} (the sources file has: {known})")


def load_sources(path: Path) -> Sources:
    """Read a sources file; errors name the outlet and the field."""
    raw = _read(path)
    raw["topics"] = _topics(raw, path)
    try:
        sources = Sources.model_validate(raw)
    except ValidationError as exc:
        raise ParawireError(f"sources file {path}: {_describe(exc, raw)}") from None
    _check_outlets(sources, path)
    return sources


def load_topics(path: Path) -> dict[str, dict[str, list[str]]]:
    """The topic keyword groups per language in force for a sources file (the shipped
    groups with the file's [topics.<language>] over them), without checking its outlets."""
    return _topics(_read(path), path)


def _read(path: Path) -> dict[str, Any]:
    return read_toml_file(path, "sources file")


def _topics(raw: dict[str, Any], path: Path) -> dict[str, dict[str, list[str]]]:
    topics = tomllib.loads(TOPICS_FILE.read_text(encoding="utf-8"))
    for language, groups in raw.get("topics", {}).items():
        if not isinstance(groups, dict):
            raise ParawireError(f"sources file {path}: topics.{language} must be a table")
        unknown = sorted(set(groups) - set(TOPICS))
        if unknown:
            raise ParawireError(f"sources file {path}: topics.{language}: unknown topic "
                                f"{unknown[0]!r} (topics: {', '.join(TOPICS)})")
        topics.setdefault(language, {}).update(groups)
    return topics


def _check_outlets(sources: Sources, path: Path) -> None:
    names = [outlet.name for outlet in sources.outlets]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ParawireError(f"sources file {path}: outlet {duplicates[0]!r} is listed twice")
    for outlet in sources.outlets:
        if not (outlet.feeds or outlet.sitemaps or outlet.sections):
            raise ParawireError(f"sources file {path}: outlet {outlet.name!r} has no feeds, "
                                "sitemaps or sections")
        listed = [("feeds", str(u)) for u in outlet.feeds] + \
            [("sitemaps", str(u)) for u in outlet.sitemaps] + \
            [("sections", str(s.url)) for s in outlet.sections]
        for field, url in listed:
            if not outlet.allows(url):
                raise ParawireError(
                    f"sources file {path}: outlet {outlet.name!r}, field {field!r}: {url} is "
                    f"outside the outlet's domains ({', '.join(outlet.domains)})")


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
