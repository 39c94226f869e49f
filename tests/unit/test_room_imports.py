"""The house rules on imports, read from the source: no room imports the roof, a room uses a
sibling only through its public API (its `__init__`) and only where the design's table of
rooms lets data flow, the ground imports no room, and nothing imports a room by its bare
folder name (those names belong to other distributions)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

ROOMS = ("crawler", "nlp", "indexer", "aligner", "trainer", "dashboard", "demo")
# Which siblings each room may use (DESIGN.md, "Rooms"): data flows one way.
SIBLINGS = {"crawler": set(), "nlp": set(), "indexer": {"nlp"}, "aligner": {"indexer", "nlp"},
            "trainer": set(), "dashboard": {"indexer"}, "demo": set()}
# What rooms and the roof may import of the ground: its modules, and the store's package
# (its schema and queries stay inside it).
GROUND_API = {"parawire", "parawire.config", "parawire.errors", "parawire.pairable",
              "parawire.records", "parawire.stage", "parawire.store", "parawire.textnorm",
              "parawire.iterate"}
ROOF = "parawire.roof"
ENTRY = "parawire.__main__"  # `python -m parawire` is the roof's CLI entry


def module_files() -> dict[str, Path]:
    """Every module of the installed tree by its import name (rooms under parawire.)."""
    found = {}
    for folder, prefix in [("parawire", "parawire"), *((room, f"parawire.{room}") for room in ROOMS)]:
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([prefix, *parts])] = path
    return found


def imported(module: str, source: str, known: set[str], is_package: bool) -> list[str]:
    """Modules that `source` (the code of `module`) imports, anywhere in it."""
    package = module if is_package else module.rpartition(".")[0]
    targets = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                targets.append(candidate if candidate in known else base)
    return targets


def room_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "parawire" and parts[1] in ROOMS else None


def violations(module: str, source: str, known: set[str], is_package: bool = False) -> list[str]:
    """What `module` imports against the rules, one line each."""
    found = []
    mine = room_of(module)
    in_roof = module == ENTRY or module.startswith(ROOF)
    for target in imported(module, source, known, is_package):
        top = target.split(".")[0]
        theirs = room_of(target)
        if top in ROOMS:
            found.append(f"{module} imports {target} by a bare room name")
        elif top != "parawire" or (target.startswith(ROOF) and in_roof):
            continue
        elif target.startswith(ROOF):
            found.append(f"{module} imports the roof ({target})")
        elif theirs is None:
            if (mine or in_roof) and target not in GROUND_API:
                found.append(f"{module} imports the ground's internal {target}")
        elif theirs == mine:
            continue
        elif mine is None and not in_roof:
            found.append(f"the ground's {module} imports the room {target}")
        elif target != f"parawire.{theirs}":
            found.append(f"{module} imports {target}, not the public API parawire.{theirs}")
        elif mine is not None and theirs not in SIBLINGS[mine]:
            found.append(f"{module} uses {target}, against the flow of the rooms")
    return found


def test_the_tree_keeps_the_rules():
    files = module_files()
    known = set(files)
    problems = [line for module, path in sorted(files.items())
                for line in violations(module, path.read_text(), known,
                                       path.name == "__init__.py")]
    assert problems == []


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("parawire.aligner.run", "from parawire.roof.pipeline import Pipeline", "imports the roof"),
    ("parawire.aligner.run", "import aligner.constraints", "bare room name"),
    ("parawire.aligner.run", "from parawire.indexer.protocol import Hit", "not the public API"),
    ("parawire.aligner.run", "from parawire import crawler", "against the flow"),
    ("parawire.nlp.annotate", "from parawire.store.schema import sentences", "ground's internal"),
    ("parawire.records", "from parawire.aligner import AlignParams", "imports the room"),
    ("parawire.roof.cli", "from parawire.trainer.training import train", "not the public API"),
    ("parawire.dashboard.app", "def f():\n    from ..roof import stages\n", "imports the roof"),
])
def test_each_rule_catches_its_violation(module, source, expected):
    found = violations(module, source, set(module_files()))
    assert len(found) == 1 and expected in found[0]


def test_allowed_imports_pass():
    known = set(module_files())
    assert violations("parawire.aligner.stage", "from parawire.indexer import open_index\n"
                      "from parawire.aligner.run import start_run\n"
                      "from parawire.store import store_of", known) == []
    assert violations("parawire.roof.stages", "from parawire.aligner import ALIGN", known) == []
    assert violations("parawire.store.store", "from parawire.store import schema", known) == []
