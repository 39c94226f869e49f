"""What one crawl covers: a publication window, a sources file, outlets and topics."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from pydantic import model_validator

from parawire.stage import Scope, option


class CrawlScope(Scope):
    """Articles published in [since, until] (default: yesterday and today, UTC) from the
    sources file's outlets (all of them unless `outlets`), on `topics` (all the sources'
    topics unless given; `all_topics` keeps off-topic articles too)."""

    since: date | None = option(None, "First publication day [default: yesterday].")
    until: date | None = option(None, "Last publication day [default: today].")
    sources: str | None = option(None, "Sources file (TOML) [default: crawl.sources].",
                                 path=True)
    outlets: list[str] = option([], "Only this outlet (repeatable).", flag="--outlet")
    topics: list[str] = option([], "Only articles on this topic (repeatable).", flag="--topic")
    all_topics: bool = option(False, "Keep off-topic articles too (topic 'other').",
                              flag="--all-topics")

    @model_validator(mode="before")
    @classmethod
    def _window(cls, values: Any) -> Any:
        """Fill an open window with yesterday..today (UTC); Scope checks its order."""
        if not isinstance(values, dict):
            return values
        today = datetime.now(UTC).date()
        since = values.get("since") or today - timedelta(days=1)
        until = values.get("until") or today
        since, until = (_day(since), _day(until))
        if values.get("topics") and values.get("all_topics"):
            raise ValueError("--topic and --all-topics exclude each other")
        return {**values, "since": since, "until": until}


def _day(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else date.fromisoformat(str(value))
