"""The stage contract, and what the roof derives from the table of stages: a Celery task
per stage (and part/close tasks per split stage) and a CLI command per stage whose options
are the scope's fields."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

import click
import pytest
from click.testing import CliRunner

from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.roof import tasks
from parawire.roof.cli import main
from parawire.roof.scope_options import scope_options, scope_values
from parawire.roof.stages import STAGES
from parawire.stage import Opened, Parts, Scope, Stage, option


class ToyScope(Scope):
    since: date | None = option(None, "First day.")
    words: list[str] = option([], "A word (repeatable).", flag="--word")
    mode: Literal["fast", "slow"] = option("fast", "How.")
    loud: bool = option(False, "Shout.", flag="--loud")
    keep: bool | None = option(None, "Keep or drop.", flag="--keep/--drop")
    size: int = option(3, "How many.", ge=1)
    hidden: bool = option(False, "Not on the command line.", cli=False)


def _counting_parts(log: list) -> Parts[ToyScope]:
    return Parts(
        open=lambda settings, scope: Opened(run_id=7, parts=list(range(scope.size)),
                                            total=scope.size, unit="item"),
        part=lambda settings, run_id, part: log.append((run_id, part)) or {"done": 1},
        close=lambda settings, run_id, counts: {"run_id": run_id,
                                                "done": sum(c["done"] for c in counts)},
        done=lambda settings, run_id: len(log))


def test_a_split_stage_called_here_runs_every_part_then_closes():
    log: list = []
    stage = Stage(name="toy", summary="A toy.", scope=ToyScope, parts=_counting_parts(log))
    assert stage(load_settings(), {"size": 4}) == {"run_id": 7, "done": 4}
    assert log == [(7, 0), (7, 1), (7, 2), (7, 3)]


def test_a_stage_needs_exactly_one_of_work_and_parts():
    with pytest.raises(TypeError, match="exactly one"):
        Stage(name="toy", summary="", scope=ToyScope)
    with pytest.raises(TypeError, match="exactly one"):
        Stage(name="toy", summary="", scope=ToyScope, work=lambda s, c: {},
              parts=_counting_parts([]))


def test_a_bad_scope_value_is_one_line_naming_the_field():
    with pytest.raises(ParawireError, match="^--size: Input should be greater than or equal to 1$"):
        ToyScope.parse({"size": 0})
    with pytest.raises(ParawireError, match="^--word: Input should be a valid list$"):
        ToyScope.parse({"words": 3})
    with pytest.raises(ParawireError, match="^hidden: Input should be a valid boolean"):
        ToyScope.parse({"hidden": "perhaps"})
    with pytest.raises(ParawireError, match="extra_field"):
        ToyScope.parse({"extra_field": 1})


def test_scope_fields_become_typed_options():
    command = click.Command("toy", params=scope_options(ToyScope),
                            callback=lambda **given: given)
    given = command.main(["--since", "2026-03-01", "--word", "a", "--word", "b", "--mode",
                          "slow", "--loud", "--drop", "--size", "5"], standalone_mode=False)
    assert ToyScope.parse(scope_values(ToyScope, given)) == ToyScope(
        since=date(2026, 3, 1), words=["a", "b"], mode="slow", loud=True, keep=False, size=5)
    defaults = command.main([], standalone_mode=False)
    assert ToyScope.parse(scope_values(ToyScope, defaults)) == ToyScope()
    assert "--hidden" not in [opt for p in command.params for opt in p.opts]


def test_every_stage_of_the_table_is_a_task_and_a_command_with_its_scope_options():
    app = tasks.create_app(load_settings())
    runner = CliRunner()
    for stage in STAGES:
        assert tasks.task_name(stage) in app.tasks
        if stage.parts is not None:
            assert {tasks.task_name(stage, "part"), tasks.task_name(stage, "close")} <= set(app.tasks)
        help_text = runner.invoke(main, [stage.name, "--help"]).output
        assert stage.summary.split()[0] in help_text
        for opt in scope_options(stage.scope):
            assert opt.opts[0] in help_text, (stage.name, opt.opts[0])



@pytest.mark.parametrize("stage", [s for s in STAGES if {"since", "until"} <= set(s.scope.model_fields)],
                         ids=lambda s: s.name)
def test_a_reversed_window_is_refused_before_any_run(tmp_path, stage):
    settings = load_settings(data_dir=tmp_path)
    with pytest.raises(ParawireError, match=r"^--since 2026-03-10 is after --until 2026-03-01$"):
        stage(settings, {"since": "2026-03-10", "until": "2026-03-01"})
    assert not (tmp_path / "parawire.db").exists()  # no store opened, no run made


def test_path_fields_are_made_absolute_in_the_caller(tmp_path, monkeypatch):
    class Paths(Scope):
        sources: str | None = option(None, "A file.", path=True)
        name: str = option("x", "Not a path.")

    monkeypatch.chdir(tmp_path)
    scope = Paths(sources="~/a.toml").for_caller(load_settings(data_dir=tmp_path))
    assert scope.sources == str(Path.home() / "a.toml") and scope.name == "x"
    assert Paths(sources="b.toml").for_caller(load_settings()).sources == str(tmp_path / "b.toml")
