"""Every file parawire ships loads through the code that uses it: the documented config,
the sources file the daily job crawls, the demo's sources, the Compose stack with its
example environment, the Kibana saved objects, the Scrapy project settings."""

from __future__ import annotations

import json
import re
import tomllib

import yaml

from parawire.config import CONFIG_ENV, load_settings
from parawire.crawler import load_sources
from parawire.crawler.sources import DEFAULT_SOURCES
from parawire.demo import sources_toml
from tests.conftest import ROOT

COMPOSE = ROOT / "docker-compose.yml"
LONG_RUNNING = {"postgres", "redis", "elasticsearch", "kibana", "worker", "beat", "dashboard"}


def test_the_documented_config_loads_as_a_user_file(monkeypatch):
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    shipped = load_settings(ROOT / "parawire" / "parawire.toml")
    assert shipped.model_dump() == load_settings().model_dump()


def test_the_shipped_sources_file_is_valid():
    sources = load_sources(DEFAULT_SOURCES)
    assert {outlet.name for outlet in sources.outlets} >= {"bbc-news", "the-guardian", "npr"}


def test_the_demo_sources_are_valid(tmp_path):
    path = tmp_path / "demo-sources.toml"
    path.write_text(sources_toml("http://127.0.0.1:8765"), encoding="utf-8")
    assert len(load_sources(path).outlets) == 5


def test_kibana_saved_objects_are_one_json_object_per_line():
    lines = (ROOT / "kibana" / "saved_objects.ndjson").read_text(encoding="utf-8").splitlines()
    objects = [json.loads(line) for line in lines if line.strip()]
    assert objects and all({"id", "type", "attributes", "references"} <= set(o) for o in objects)


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def test_compose_publishes_the_servers_on_loopback_only():
    services = _compose()["services"]
    for name, port in (("postgres", 5432), ("redis", 6379), ("elasticsearch", 9200),
                       ("dashboard", 8000), ("kibana", 5601)):
        assert services[name]["ports"] == [f"127.0.0.1:{port}:{port}"], name


def test_compose_restarts_services_and_mounts_the_config_and_sources():
    compose = _compose()
    services = compose["services"]
    for name in LONG_RUNNING:
        service = {**compose["x-parawire"], **services[name]}
        assert service.get("restart") == "unless-stopped", name
    shared = compose["x-parawire"]
    mounts = dict(reversed(re.fullmatch(r"(.+):(/[^:]*)(?::ro)?", volume).groups())
                  for volume in shared["volumes"])
    environment = shared["environment"]
    assert mounts[environment["PARAWIRE_CRAWL__SOURCES"]] == \
        "${PARAWIRE_SOURCES_FILE:-./crawler/sources.toml}"
    assert mounts[environment["PARAWIRE_CONFIG"]] == "${PARAWIRE_CONFIG_FILE:-./parawire/parawire.toml}"


def test_compose_secrets_come_from_env_with_a_complete_example():
    text = COMPOSE.read_text(encoding="utf-8")
    assert "parawire:parawire@" not in text and "POSTGRES_PASSWORD: parawire" not in text
    example = ROOT / ".env.example"
    names = {line.split("=", 1)[0] for line in example.read_text().splitlines()
             if line and not line.startswith("#")}
    used = set(re.findall(r"\$\{(\w+)", text))
    assert used <= names, used - names
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()
    for default in ("./parawire/parawire.toml", "./crawler/sources.toml"):
        assert (ROOT / default).is_file()


def test_the_image_caches_dependencies_and_runs_unprivileged():
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # continuation lines joined
    steps = [line.split(None, 1) for line in text.splitlines() if line and line[0] not in " #"]
    instructions = [(step[0], step[1] if len(step) > 1 else "") for step in steps]
    copies = [i for i, (op, _) in enumerate(instructions) if op == "COPY"]
    first_pip = next(i for i, (op, arg) in enumerate(instructions)
                     if op == "RUN" and "pip install" in arg)
    assert instructions[copies[0]][1].split()[0] == "pyproject.toml"
    assert copies[0] < first_pip < copies[1]  # dependencies installed before the code arrives
    user = [arg for op, arg in instructions if op == "USER"]
    assert user and user[-1] not in ("root", "0")
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert dependencies  # what the dependency layer installs


def test_the_scrapy_project_points_at_the_crawler_settings():
    text = (ROOT / "scrapy.cfg").read_text()
    assert re.search(r"default\s*=\s*parawire\.crawler\.settings", text)
    import importlib

    assert importlib.import_module("parawire.crawler.settings").USER_AGENT
