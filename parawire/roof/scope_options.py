"""Command-line options derived from a stage's scope model: one option per field, named
after the field (or the flag it declares), typed after its annotation, with its help."""

from __future__ import annotations

import types
import typing
from datetime import date
from typing import Any, Literal

import click
from pydantic.fields import FieldInfo

from parawire.stage import Scope

_DAY = click.DateTime(["%Y-%m-%d"])


def scope_options(scope: type[Scope]) -> list[click.Parameter]:
    """The click parameters of a scope's fields (those not marked cli=False): options, and
    positional arguments for fields marked argument=True."""
    return [(_argument if _extra(field).get("argument") else _option)(name, field)
            for name, field in scope.model_fields.items() if _extra(field).get("cli", True)]


def scope_values(scope: type[Scope], given: dict[str, Any]) -> dict[str, Any]:
    """The scope fields from click's parsed values: unset options left out, days as dates,
    repeated options as lists."""
    values: dict[str, Any] = {}
    for name, value in given.items():
        if name not in scope.model_fields or value is None:
            continue
        if isinstance(value, tuple):
            value = list(value)
        elif hasattr(value, "date") and _base(scope.model_fields[name].annotation) is date:
            value = value.date()
        values[name] = value
    return values


def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def _base(annotation: Any) -> Any:
    """The annotation without `| None`."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else annotation
    return annotation


def _argument(name: str, field: FieldInfo) -> click.Argument:
    """A positional argument; a list field takes one or more (none when it has a default)."""
    many = typing.get_origin(_base(field.annotation)) is list
    return click.Argument([name], nargs=-1 if many else 1, required=field.is_required(),
                          metavar=name.upper() + ("…" if many else ""))


def _option(name: str, field: FieldInfo) -> click.Option:
    flag = _extra(field).get("flag") or "--" + name.replace("_", "-")
    base = _base(field.annotation)
    required = field.is_required()
    attrs: dict[str, Any] = {"help": field.description or None, "required": required}
    if not required and field.default not in (None, [], False):
        attrs["default"], attrs["show_default"] = field.default, True
    if base is bool:
        if "/" not in flag and field.default in (None, True):
            flag = f"{flag}/--no-{flag.removeprefix('--')}"
        attrs["default"] = field.default
        return click.Option([flag, name], is_flag=True, **attrs)
    if typing.get_origin(base) is list:
        return click.Option([flag, name], multiple=True, **attrs)
    if typing.get_origin(base) is Literal:
        return click.Option([flag, name], type=click.Choice([str(v) for v in typing.get_args(base)]),
                            **attrs)
    types_by_base = {date: _DAY, int: int, float: float, str: str}
    return click.Option([flag, name], type=types_by_base.get(base, str), **attrs)
