"""The command line follows the conventions users expect: --version, -h, exit 130 on
Ctrl-C, logging options and --config on every command (before or after its name),
`config show`, and `status` refusing a folder with no project."""

from __future__ import annotations

import json
import tomllib

import click
import pytest
from click.testing import CliRunner

from parawire.config import load_settings
from parawire.roof.cli import main


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("PARAWIRE_CONFIG", "PARAWIRE_DATA_DIR", "PARAWIRE_STORE__URL"):
        monkeypatch.delenv(name, raising=False)

    def invoke(*args: str, **env: str):
        return CliRunner().invoke(main, list(args), env=env or None, catch_exceptions=False)
    return invoke


def _commands(command: click.Command, path: tuple[str, ...] = ()):
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


def test_version(run):
    assert run("--version").output.strip() == "parawire, version 0.1.0"


@pytest.mark.parametrize("path", list(_commands(main)), ids=" ".join)
def test_every_command_has_short_help_and_the_common_options(run, path):
    result = run(*path, "-h")
    assert result.exit_code == 0
    for option in ("--config", "--log-level", "--log-format", "-h, --help"):
        assert option in result.output, option


def test_ctrl_c_exits_130(run, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("parawire.roof.pipeline.Pipeline.run", interrupted)
    result = CliRunner().invoke(main, ["align"])
    assert result.exit_code == 130
    assert result.stderr.strip() == "parawire: interrupted"


def test_an_error_of_the_clean_up_a_ctrl_c_set_off_is_still_the_interruption(run, monkeypatch):
    """Ctrl-C in the middle of a transaction can make its roll-back fail in turn (SQLAlchemy's
    PendingRollbackError): that is still an interruption, exit 130 in one line."""
    from sqlalchemy.exc import PendingRollbackError

    def cut_in_a_transaction(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise PendingRollbackError("Can't reconnect until invalid transaction is rolled "
                                       "back", None, None) from None

    monkeypatch.setattr("parawire.roof.pipeline.Pipeline.run", cut_in_a_transaction)
    result = CliRunner().invoke(main, ["align"])
    assert (result.exit_code, result.stderr.strip()) == (130, "parawire: interrupted")

    def a_bug(*args, **kwargs):
        raise ValueError("not an interruption")

    monkeypatch.setattr("parawire.roof.pipeline.Pipeline.run", a_bug)
    result = CliRunner().invoke(main, ["align"])
    assert result.exit_code == 1 and isinstance(result.exception, ValueError)


def test_config_is_accepted_after_the_command(run, tmp_path):
    (tmp_path / "mine.toml").write_text('[align]\nbeta = 0.81\n[crawl]\ncontact = "ops@example.org"\n')
    before = tomllib.loads(run("--config", "mine.toml", "config", "show").output)
    after = tomllib.loads(run("config", "show", "--config", "mine.toml").output)
    assert before == after
    assert after["align"]["beta"] == 0.81 and after["crawl"]["contact"] == "ops@example.org"


def test_config_show_is_the_effective_config_and_loads_back(run, tmp_path):
    result = run("config", "show", PARAWIRE_ALIGN__MIN_CN="4", PARAWIRE_SERVE__TOKEN="s3cret",
                 PARAWIRE_BROKER__URL="redis://:pw@127.0.0.1:6379/0")
    shown = tomllib.loads(result.output)
    assert shown["align"]["min_cn"] == 4
    assert "s3cret" not in result.output and ":pw@" not in result.output
    assert shown["nlp"]["models"]["en"] == load_settings().nlp.models["en"]
    (tmp_path / "shown.toml").write_text(run("config", "show").output)
    assert load_settings(tmp_path / "shown.toml").model_dump() == load_settings().model_dump()


def test_log_options_work_after_any_command(run, monkeypatch):
    monkeypatch.setattr("parawire.roof.pipeline.Pipeline.run", lambda self, name, scope: {"n": 1})
    quiet = run("annotate")
    assert quiet.exit_code == 0 and not quiet.stderr
    text = run("annotate", "--log-level", "info")
    assert "INFO parawire: annotate: done: {'n': 1}" in text.stderr
    lines = run("annotate", "--log-level", "info", "--log-format", "json").stderr.splitlines()
    records = [json.loads(line) for line in lines]
    assert records[-1]["level"] == "info" and records[-1]["logger"] == "parawire"
    assert records[-1]["message"] == "annotate: done: {'n': 1}"
    assert "T" in records[-1]["time"]
    before = run("--log-level", "info", "annotate").stderr
    assert "annotate: done" in before


def test_status_in_a_folder_with_no_project_refuses_and_creates_nothing(run, tmp_path):
    result = run("status")
    assert result.exit_code == 1
    assert result.stderr.strip().startswith("parawire: error: no parawire store here (")
    assert len(result.stderr.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())


def test_demo_site_never_replaces_a_sources_file_it_did_not_write(run, tmp_path):
    (tmp_path / "my-sources.toml").write_text("# mine\n")
    result = run("demo-site", "--sources", "my-sources.toml")
    assert result.exit_code == 1
    assert "my-sources.toml exists and was not written by `parawire demo-site`" in result.stderr
    assert (tmp_path / "my-sources.toml").read_text() == "# mine\n"
