"""The pair browser's filters on text, entity, outlet, day, score, probability, grade and
direction, validated for HTTP."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from parawire.records import Direction, PairListing, PairQuery
from parawire.store import Store

MAX_PAGE = 100
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_date(value: Any) -> Any:
    """Only a YYYY-MM-DD string (or a date) is a date: no number read as a timestamp."""
    if isinstance(value, date) or (isinstance(value, str) and _ISO_DATE.fullmatch(value)):
        return value
    raise ValueError("a date is written YYYY-MM-DD")


IsoDate = Annotated[date, BeforeValidator(_iso_date)]


class PairFilters(BaseModel):
    """What an operator searches pairs by; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    q: str | None = Field(None, max_length=200,
                          description="Whole words, in a row, in either sentence (case "
                                      "folded; a text without any word is looked for as "
                                      "it is).")
    entity: str | None = Field(None, max_length=100,
                               description="A proper noun of either sentence (part of it).")
    outlet: str | None = Field(None, max_length=200, description="Outlet of either sentence.")
    since: IsoDate | None = Field(None, description="Either sentence published on or after "
                                                    "(YYYY-MM-DD; not after `until`).")
    until: IsoDate | None = Field(None, description="Either sentence published on or before "
                                                    "(YYYY-MM-DD).")
    min_score: float | None = Field(None, ge=0, le=1, description="Not above `max_score`.")
    max_score: float | None = Field(None, ge=0, le=1)
    min_probability: float | None = Field(
        None, ge=0, le=1, description="The pair scorer's probability at least this (pairs "
                                      "stored without one are left out).")
    min_grade: int | None = Field(
        None, ge=0, le=5, description="The pair model's grade at least this (0-5; pairs "
                                      "stored without a grade are left out).")
    direction: Direction | None = Field(
        None, description="The pair model's direction, the input as side a (equivalent, "
                          "a_covers_b, b_covers_a, both_add).")
    run: int | None = Field(None, ge=1, le=2**31 - 1, description="Alignment run id.")
    story: int | None = Field(None, ge=1, le=2**31 - 1, description="Story id.")
    before: int | None = Field(None, ge=1, le=2**31 - 1,
                               description="Only pairs with a smaller id (the next page).")
    limit: int = Field(20, ge=1, le=MAX_PAGE)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        if self.since and self.until and self.since > self.until:
            raise ValueError("since is after until")
        if self.min_score is not None and self.max_score is not None \
                and self.min_score > self.max_score:
            raise ValueError("min_score is above max_score")
        return self


def search_pairs(store: Store, filters: PairFilters) -> tuple[list[PairListing], int | None]:
    """One page of matching pairs, newest first, and the `before` of the next page (or None)."""
    return store.search_pairs(PairQuery(**filters.model_dump()))
