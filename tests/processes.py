"""Processes as Linux's /proc shows them, for tests of what a command leaves running."""

from __future__ import annotations

import contextlib
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def live_processes() -> dict[int, tuple[int, int]]:
    """Each live process's parent and session (zombies left out)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            state, parent, _, session = stat.read_text().rsplit(")", 1)[1].split()[:4]
            if state not in ("Z", "X"):
                found[int(stat.parent.name)] = (int(parent), int(session))
    return found


def command_line(pid: int) -> bytes:
    """A process's command line (empty once it has gone)."""
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""
