"""docker-compose.yml is a valid Compose file with every service the design names, and its
healthchecks can fail: each one, run here against a closed port, reports unhealthy."""

import os
import re
import shutil
import socket
import subprocess
import sys

import pytest
import yaml

from tests.conftest import ROOT


def _compose_command() -> list[str]:
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.skip("no Compose client (docker compose or docker-compose) on this machine")


def test_compose_config_is_valid_and_complete():
    result = subprocess.run([*_compose_command(), "--env-file", ".env.example", "config",
                             "--services"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    services = set(result.stdout.split())
    assert {"postgres", "redis", "elasticsearch", "kibana", "worker", "beat",
            "dashboard"} <= services


def test_compose_refuses_to_start_without_a_database_password(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    (tmp_path / "empty.env").write_text("")
    result = subprocess.run([*_compose_command(), "--env-file", str(tmp_path / "empty.env"),
                             "config"], cwd=ROOT,
                            capture_output=True, text=True, env=env)
    assert result.returncode != 0 and "set POSTGRES_PASSWORD in .env" in result.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again once the socket is


def _healthchecks() -> dict[str, list[str]]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return {name: service["healthcheck"]["test"] for name, service in services.items()
            if "healthcheck" in service}


@pytest.mark.parametrize("service", sorted(set(_healthchecks()) - {"beat"}))
def test_healthcheck_fails_against_a_closed_port(service, tmp_path):
    kind, *command = _healthchecks()[service]
    port = _closed_port()
    # every server check names 127.0.0.1 and its port, as `host:port` or `-p port`
    command = [re.sub(r"(127\.0\.0\.1:|-p )\d+", rf"\g<1>{port}", part) for part in command]
    env = {**os.environ, "PARAWIRE_BROKER__URL": f"redis://127.0.0.1:{port}/0"}
    if service == "worker":  # pings the workers through the broker of its environment
        command = [command[0].replace("celery ", f"{sys.executable} -m celery ", 1)]
    else:
        assert str(port) in " ".join(command), f"{service}: its healthcheck names no port"
    tool = command[0].split()[0]
    if tool == "python":
        command[0] = sys.executable
    elif not shutil.which(tool) and not tool.startswith("/"):
        pytest.skip(f"{tool} is not installed here")
    argv = ["sh", "-c", command[0]] if kind == "CMD-SHELL" else command
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120,
                            cwd=tmp_path)
    assert result.returncode != 0, (service, argv, result.stdout)


def test_the_beat_healthcheck_fails_without_a_schedule_file(tmp_path):
    kind, command = _healthchecks()["beat"]
    assert kind == "CMD-SHELL" and "/data/celerybeat-schedule" in command
    assert subprocess.run(["sh", "-c", command.replace("/data", str(tmp_path))]).returncode != 0
    (tmp_path / "celerybeat-schedule").write_bytes(b"schedule")
    assert subprocess.run(["sh", "-c", command.replace("/data", str(tmp_path))]).returncode == 0
