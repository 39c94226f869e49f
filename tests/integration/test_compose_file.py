"""docker-compose.yml is a valid Compose file with every service the design names."""

import shutil
import subprocess

import pytest

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
    result = subprocess.run([*_compose_command(), "config", "--services"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    services = set(result.stdout.split())
    assert {"postgres", "redis", "elasticsearch", "kibana", "worker", "beat",
            "dashboard"} <= services
