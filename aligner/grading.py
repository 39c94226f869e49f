"""The PairModel seam: every candidate gets a grade and a direction (DESIGN.md, "Seams";
the scheme of shared/data/pairs-dev/README.md).

Grades: 5 equivalent, 4 equivalent apart from minor items, 3 one side covers the other,
2 both add (the same core claim), 1 the same event and another claim, 0 unrelated. The
direction reads the candidate's reference as side a and its sentence as side b."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from parawire.records import Direction

if TYPE_CHECKING:
    from parawire.aligner.candidates import Candidate

class Grading(NamedTuple):
    """A candidate's grade, its direction, and the probability of each grade (0 to 5)."""

    grade: int
    direction: Direction
    probabilities: tuple[float, ...]


class PairModel(Protocol):
    """Grades candidates, whichever source found them; `version` is recorded with each run."""

    version: str

    def grade(self, candidates: Sequence[Candidate]) -> list[Grading]:
        """One grading per candidate, in order."""
        ...
