"""The stage contract: every room exports its stages in this one shape.

A stage is a function of `(settings, scope) -> counts`. Its scope is a small frozen model
(JSON-safe, so it crosses to Celery workers as it is) whose fields are also the stage's
command-line options. A stage whose work splits into independent parts (alignment's batches
of references) says how: open a run, run each part, close the run with the parts' counts;
the roof then spreads the parts over workers, and calling the stage runs them in turn.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from parawire.config import Settings
from parawire.errors import ParawireError

Counts = dict[str, Any]
ScopeT = TypeVar("ScopeT", bound="Scope")


class Scope(BaseModel):
    """What one run of a stage covers. Subclasses declare their fields with `option`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="after")
    def _window_order(self) -> Scope:
        """A window of days (`since`, `until`) must not end before it starts."""
        since, until = getattr(self, "since", None), getattr(self, "until", None)
        if isinstance(since, date) and isinstance(until, date) and since > until:
            raise ValueError(f"{self.name_of('since')} {since} is after "
                             f"{self.name_of('until')} {until}")
        return self

    @classmethod
    def parse(cls: type[ScopeT], values: Scope | dict[str, Any] | None = None) -> ScopeT:
        """The scope from a model or a dict; a bad value raises one-line ParawireError."""
        if isinstance(values, cls):
            return values
        if isinstance(values, Scope):
            values = values.model_dump()
        try:
            return cls.model_validate(values or {})
        except ValidationError as exc:
            error = exc.errors()[0]
            field = str(error["loc"][0]) if error["loc"] else ""
            message = error["msg"].removeprefix("Value error, ")
            raise ParawireError(f"{cls.name_of(field)}: {message}" if field else message) from None

    @classmethod
    def name_of(cls, field: str) -> str:
        """How a field is named to users: its command-line option (the first flag), or its
        own name when it has none."""
        info = cls.model_fields.get(field)
        extra = info.json_schema_extra if info is not None else None
        if not isinstance(extra, dict) or not extra.get("cli", True):
            return field
        if extra.get("argument"):
            return field.upper()
        return str(extra.get("flag") or "--" + field.replace("_", "-")).split("/")[0]

    def for_caller(self, settings: Settings) -> Scope:
        """The scope as the caller means it, before it goes to a worker whose working
        folder may differ: path fields made absolute. Scopes with defaults that depend on
        the caller (e.g. export's output folder) fill them here too."""
        del settings  # the base scope needs none; subclasses may
        paths = {name: os.path.abspath(os.path.expanduser(value))
                 for name, value in self.model_dump().items()
                 if isinstance(value, str) and _is_path(type(self).model_fields[name])}
        return self.model_copy(update=paths)

    def to_json(self) -> dict[str, Any]:
        """The scope as JSON-safe values."""
        return self.model_dump(mode="json")


def option(default: Any = ..., help: str = "", *, flag: str | None = None, cli: bool = True,
           path: bool = False, argument: bool = False, **limits: Any) -> Any:
    """A scope field: its default, its help text, and optionally the command-line flag
    (e.g. "--outlet", or "--a/--b" for a boolean) when it is not `--field-name`;
    `cli=False` keeps it off the command line; `path=True` marks a file or folder path,
    made absolute in the caller (`Scope.for_caller`); `argument=True` makes it a positional
    argument (a list field takes any number of them)."""
    extra = {"flag": flag, "cli": cli, "path": path, "argument": argument}
    return Field(default, description=help, json_schema_extra=extra, **limits)


def _is_path(field: Any) -> bool:
    extra = field.json_schema_extra
    return isinstance(extra, dict) and bool(extra.get("path"))


@dataclass(frozen=True, slots=True)
class Opened:
    """A split stage's run, opened: its id, the parts still to do, and the progress units
    (e.g. references) those parts hold."""

    run_id: int
    parts: list[Any]
    total: int
    unit: str


@dataclass(frozen=True, slots=True)
class Parts(Generic[ScopeT]):
    """How a stage splits: `open` a run (or resume it), run each `part` of it (JSON-safe
    payloads, in any order, on any worker, possibly more than once), then `close` it with the
    parts' counts. `done` counts the progress units a run has finished, for progress bars;
    `stop` ends a run that cannot go on as "interrupted" or "failed", with the reason."""

    open: Callable[[Settings, ScopeT], Opened]
    part: Callable[[Settings, int, Any], Counts]
    close: Callable[[Settings, int, list[Counts]], Counts]
    done: Callable[[Settings, int], int]
    stop: Callable[[Settings, int, str, str], None]

    @contextmanager
    def stopping(self, settings: Settings, run_id: int) -> Iterator[None]:
        """Record on the run how the work inside ended, when it did not end well: an
        interrupt (Ctrl-C, SIGTERM) as "interrupted", an error as "failed"."""
        try:
            yield
        except KeyboardInterrupt as exc:
            self.stop(settings, run_id, "interrupted", interrupt_reason(exc))
            raise
        except Exception as exc:
            self.stop(settings, run_id, "failed", describe(exc))
            raise


def interrupt_reason(exc: KeyboardInterrupt) -> str:
    """Why a run was interrupted: SIGINT (Ctrl-C), or the signal a Terminated names."""
    return str(exc.args[0]) if exc.args else "SIGINT"


def describe(exc: BaseException) -> str:
    """An exception as one line: the message of a ParawireError, otherwise its type and the
    first line of its message."""
    lines = str(exc).strip().splitlines()
    first = lines[0] if lines else ""
    if isinstance(exc, ParawireError):
        return first
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@dataclass(frozen=True, slots=True)
class Watch:
    """How to follow a one-function stage while it runs, for a progress bar: a count in the
    store that grows with its work (e.g. articles stored), and that count's unit."""

    count: Callable[[Settings], int]
    unit: str


@dataclass(frozen=True, slots=True)
class Stage(Generic[ScopeT]):
    """One stage of the pipeline, as a room exports it: name, one-line summary, scope
    model, and either `work` (one function) or `parts` (a split stage); `watch`, for a
    progress bar of a one-function stage; `verdict`, for a stage whose work can end without
    an exception yet not well (a crawl that reached no outlet): the error its runs' counts
    make, raised by the roof once the counts are reported (commands end with its exit
    code), or None."""

    name: str
    summary: str
    scope: type[ScopeT]
    work: Callable[[Settings, ScopeT], Counts] | None = None
    parts: Parts[ScopeT] | None = None
    watch: Watch | None = None
    verdict: Callable[[list[Counts]], ParawireError | None] | None = None

    def __post_init__(self) -> None:
        if (self.work is None) == (self.parts is None):
            raise TypeError(f"stage {self.name!r} needs exactly one of work and parts")

    def __call__(self, settings: Settings, scope: ScopeT | dict[str, Any] | None = None) -> Counts:
        """Run the stage here, in this process (a split stage runs its parts in turn)."""
        parsed = self.scope.parse(scope)
        if self.work is not None:
            return self.work(settings, parsed)
        assert self.parts is not None
        opened = self.parts.open(settings, parsed)
        with self.parts.stopping(settings, opened.run_id):
            done = [self.parts.part(settings, opened.run_id, part) for part in opened.parts]
            return self.parts.close(settings, opened.run_id, done)
