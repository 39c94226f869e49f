"""Alignment parameters, as recorded with each run."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Any

from pydantic import ConfigDict

from parawire.aligner.constraints import Constraints
from parawire.aligner.pair_model import load_pair_model
from parawire.config import AlignConfig, AlignCriteria


class AlignParams(AlignCriteria):
    """Everything that decides which pairs a run finds: the [align] criteria (defaults and
    checks from parawire.config) and the run's scope."""

    model_config = ConfigDict(frozen=True)

    language: str | None = None
    topic: str | None = None
    since: date | None = None
    until: date | None = None
    # The version of the pair model's file (recorded: another model, another run).
    pair_model_version: str = ""

    @classmethod
    def from_config(cls, config: AlignConfig, **scope: Any) -> AlignParams:
        """Parameters from the [align] config section plus a run's scope (or other overrides),
        with the version of the configured pair model.

        The batch size only splits the work, so it is not part of a run's identity.
        """
        values = {**config.model_dump(include=set(AlignCriteria.model_fields)), **scope}
        values.setdefault("pair_model_version", load_pair_model(values["pair_model"]).version)
        return cls(**values)

    @property
    def constraints(self) -> Constraints:
        """The part of the parameters that Algorithm 1 uses."""
        return Constraints(min_cn=self.min_cn, min_pn=self.min_pn, alpha=self.alpha,
                           sparse_min_pn=self.sparse_min_pn)

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict of the parameters (dates as ISO strings)."""
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AlignParams:
        """Parameters back from to_json()."""
        return cls.model_validate(data)

    def run_key(self) -> str:
        """Runs with equal parameters share a key, so re-running resumes the same run."""
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()
