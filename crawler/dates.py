"""Publication dates: the first plausible one of metadata, URL and listing."""

from __future__ import annotations

import re
from datetime import date

# /2026/03/02/, /2026-03-02-, _20260302_ in a URL's path.
_URL_DATE = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d{2})(?P<sep>[/_-]?)(?P<m>0[1-9]|1[0-2])(?P=sep)"
    r"(?P<d>0[1-9]|[12]\d|3[01])(?!\d)"
)


def date_from_url(url: str) -> date | None:
    """A full year-month-day date written in a URL's path, if there is one."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]
    for match in _URL_DATE.finditer(path):
        try:
            return date(int(match["y"]), int(match["m"]), int(match["d"]))
        except ValueError:
            continue
    return None


def plausible(day: date | None, oldest: date, today: date) -> bool:
    """Whether a date can be an outlet's publication date: not future, not before `oldest`."""
    return day is not None and oldest <= day <= today


def publication_date(candidates: list[date | None], oldest: date, today: date) -> date | None:
    """The first plausible date of `candidates`, given in order of trust."""
    return next((day for day in candidates if plausible(day, oldest, today)), None)
