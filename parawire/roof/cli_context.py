"""What every command shares: the settings of the command line, and JSON on stdout."""

from __future__ import annotations

import json
from typing import Any

import click

from parawire.config import Settings, load_settings

CONFIG_KEY = "parawire.config_file"


def settings_of(ctx: click.Context) -> Settings:
    """The settings, loaded on first use: `--config` may come after the command's name."""
    root = ctx.find_root()
    if root.obj is None:
        root.obj = load_settings(root.meta.get(CONFIG_KEY))
    return root.obj


def echo_json(data: Any) -> None:
    """Print data as indented JSON."""
    click.echo(json.dumps(data, indent=2, default=str))
