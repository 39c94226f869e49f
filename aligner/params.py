"""Alignment parameters, as recorded with each run."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from parawire.aligner.constraints import Constraints
from parawire.config import AlignConfig


@dataclass(frozen=True, slots=True)
class AlignParams:
    """Everything that decides which pairs a run finds."""

    min_cn: int = 3
    min_pn: int = 3
    alpha: float = 0.7
    beta: float = 0.7
    date_window_days: int = 3
    same_topic: bool = False
    exclude_same_outlet: bool = False
    normalize: str = "max"
    max_hits: int = 1000
    max_token_jaccard: float = 0.9
    min_length_ratio: float = 0.5
    min_semantic_similarity: float = 0.0
    language: str | None = None
    topic: str | None = None
    since: date | None = None
    until: date | None = None

    @classmethod
    def from_config(cls, config: AlignConfig, **scope: Any) -> AlignParams:
        """Parameters from the [align] config section plus a run's scope.

        The batch size only splits the work, so it is not part of a run's identity.
        """
        return cls(**{**config.model_dump(exclude={"batch_size"}), **scope})

    @property
    def constraints(self) -> Constraints:
        """The part of the parameters that Algorithm 1 uses."""
        return Constraints(min_cn=self.min_cn, min_pn=self.min_pn, alpha=self.alpha)

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict of the parameters."""
        data = asdict(self)
        for key in ("since", "until"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AlignParams:
        """Parameters back from to_json()."""
        values = dict(data)
        for key in ("since", "until"):
            if values.get(key):
                values[key] = date.fromisoformat(values[key])
        return cls(**values)

    def run_key(self) -> str:
        """Runs with equal parameters share a key, so re-running resumes the same run."""
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()
