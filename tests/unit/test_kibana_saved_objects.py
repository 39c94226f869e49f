"""The Kibana saved objects shipped in kibana/ fit the Elasticsearch backend's mapping."""

from __future__ import annotations

import json

import yaml

from parawire.config import IndexConfig
from parawire.indexer.es_mapping import mappings
from tests.conftest import ROOT

NDJSON = ROOT / "kibana" / "saved_objects.ndjson"


def _objects() -> dict[str, dict]:
    lines = NDJSON.read_text(encoding="utf-8").splitlines()
    objects = [json.loads(line) for line in lines if line.strip()]
    return {obj["id"]: obj for obj in objects}


def test_data_view_reads_the_all_languages_alias_by_publication_day():
    views = [o for o in _objects().values() if o["type"] == "index-pattern"]
    assert len(views) == 1
    attributes = views[0]["attributes"]
    assert attributes["title"] == IndexConfig().prefix
    assert mappings()["properties"][attributes["timeFieldName"]]["type"] == "date"


def test_every_visualisation_aggregates_a_mapped_aggregatable_field():
    properties = mappings()["properties"]
    fields = set()
    for obj in _objects().values():
        if obj["type"] != "visualization":
            continue
        state = json.loads(obj["attributes"]["visState"])
        for agg in state["aggs"]:
            if "field" in agg["params"]:
                fields.add(agg["params"]["field"])
                assert properties[agg["params"]["field"]]["type"] in {"keyword", "date", "integer"}
    assert fields == {"published", "source", "topic", "entity_types", "language"}


def test_references_resolve_and_the_dashboard_shows_every_visualisation():
    objects = _objects()
    for obj in objects.values():
        for ref in obj["references"]:
            assert objects[ref["id"]]["type"] == ref["type"], ref
    dashboard = objects["parawire-operator"]
    panels = json.loads(dashboard["attributes"]["panelsJSON"])
    names = {ref["name"]: ref["id"] for ref in dashboard["references"]}
    shown = {names[panel["panelRefName"]] for panel in panels}
    assert shown == {oid for oid, o in objects.items() if o["type"] == "visualization"}


def test_compose_loads_the_file_into_kibana_once_it_is_healthy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    setup = compose["services"]["kibana-setup"]
    assert setup["depends_on"]["kibana"]["condition"] == "service_healthy"
    assert any(volume.startswith("./kibana/saved_objects.ndjson:") for volume in setup["volumes"])
    assert "/api/saved_objects/_import?overwrite=true" in " ".join(setup["command"])
