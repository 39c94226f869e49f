"""Publication dates: the first plausible one of metadata, URL and listing."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

# /2026/03/02/, /2026-03-02-, _20260302_ in a URL's path.
_URL_DATE = re.compile(
    r"(?<!\d)(?P<y>(?:19|20)\d{2})(?P<sep>[/_-]?)(?P<m>0[1-9]|1[0-2])(?P=sep)"
    r"(?P<d>0[1-9]|[12]\d|3[01])(?!\d)"
)


# /2019/nov/18/ (English month names, as some outlets write them).
_URL_NAMED_DATE = re.compile(
    r"/(?P<y>(?:19|20)\d{2})/(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"/(?P<d>0?[1-9]|[12]\d|3[01])/", re.IGNORECASE)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def date_from_url(url: str) -> date | None:
    """A full year-month-day date written in a URL's path, if there is one."""
    path = url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]
    found = [(m["y"], m["m"], m["d"]) for m in _URL_DATE.finditer(path)]
    found += [(m["y"], _MONTHS.index(m["m"].lower()) + 1, m["d"])
              for m in _URL_NAMED_DATE.finditer(f"/{path}")]
    for year, month, day in found:
        try:
            return date(int(year), int(month), int(day))
        except ValueError:
            continue
    return None


def plausible(day: date | None, oldest: date, today: date) -> bool:
    """Whether a date can be an outlet's publication date: not future, not before `oldest`."""
    return day is not None and oldest <= day <= today


def publication_date(candidates: list[date | None], oldest: date, today: date) -> date | None:
    """The first plausible date of `candidates`, given in order of trust."""
    return next((day for day in candidates if plausible(day, oldest, today)), None)


# A date line that dates an update, not the publication.
_UPDATED = re.compile(r"updat|modif|aktualisiert|actualiz|mis à jour|aggiornat|bijgewerkt|"
                      r"atualizad|изменен|обновлен", re.IGNORECASE)


def is_update(text: str) -> bool:
    """Whether a date line's text or markup labels an update or modification."""
    return _UPDATED.search(text) is not None


# English month abbreviations as a word's start: a date line without its year ("Posted
# Nov 18, 8:19 PM") is read when it names the month.
_MONTH_WORD = {month: re.compile(rf"\b{month}", re.IGNORECASE) for month in _MONTHS}


def _states_day(line: str, day: date) -> bool:
    """Whether a date line writes this day of the month (not as part of a clock time)
    and its year or its month's English name."""
    return ((str(day.year) in line or _MONTH_WORD[_MONTHS[day.month - 1]].search(line))
            and re.search(rf"(?<![\d:]){day.day:d}(?!\d|:\d)|(?<![\d:])0{day.day:d}(?!\d|:\d)",
                          line) is not None)


def stated_day(day: date, lines: list[str]) -> date | None:
    """The day the page's visible date lines give for a date found in its metadata: a
    timestamp in UTC or mislabelled may fall on the day before or after the outlet's own
    (a story of 9:24 pm in New York is stamped 02:24 UTC the next day). The first line
    (what follows an update's label aside) that writes exactly one of those days decides;
    None when no line does."""
    near = [day, day - timedelta(days=1), day + timedelta(days=1)]
    for line in lines:
        line = _UPDATED.split(line, maxsplit=1)[0]
        stated = [other for other in near if _states_day(line, other)]
        if len(stated) == 1:
            return stated[0]
    return None


# An ISO timestamp with its time zone: "2019-11-20T04:26:47Z", "2019-11-19 21:57:00 -0800".
_STAMP = re.compile(r"^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?\s*"
                    r"(?P<zone>Z|UTC|GMT|[+-]\d\d:?\d\d)?$", re.IGNORECASE)
_UTC = ("z", "utc", "gmt", "+00:00", "+0000", "-00:00", "-0000")


def time_zone(value: str) -> str:
    """The time zone of an ISO timestamp when it is an outlet's own ("-05:00"), else ""
    (no timestamp, no zone, UTC)."""
    match = _STAMP.match(value.strip())
    zone = match["zone"] if match and match["zone"] else ""
    return "" if zone.lower() in _UTC else zone


def local_day(value: str, zones: list[str]) -> date | None:
    """The day of a timestamp; one in UTC is moved to the first time zone the page's other
    timestamps give (the outlet's), so that 02:24 UTC is the evening before in New York."""
    match = _STAMP.match(value.strip())
    zone = (match["zone"] or "").lower() if match else ""
    try:
        if match and zone in _UTC and zone and zones:
            stamp = datetime.fromisoformat(value.strip()[:19].replace(" ", "T") + "+00:00")
            return stamp.astimezone(datetime.strptime(
                zones[0].replace(":", ""), "%z").tzinfo).date()
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None
