"""The Kibana saved objects shipped in kibana/ fit the Elasticsearch backend's mapping."""

from __future__ import annotations

import json

import yaml

from parawire.config import IndexConfig
from parawire.indexer.es_mapping import mappings
from parawire.indexer.es_views import VIEWS
from tests.conftest import ROOT

NDJSON = ROOT / "kibana" / "saved_objects.ndjson"


def _objects() -> dict[str, dict]:
    lines = NDJSON.read_text(encoding="utf-8").splitlines()
    objects = [json.loads(line) for line in lines if line.strip()]
    return {obj["id"]: obj for obj in objects}


def _mapping_of_view(title: str) -> dict:
    """The mapping behind a data view's title: the sentences' alias, or a view's alias."""
    prefix = IndexConfig().prefix
    views = {f"{prefix}-{name}": mapping for name, mapping in VIEWS.items()}
    return mappings() if title == prefix else views[title]


def test_data_views_read_the_aliases_the_backend_writes_by_a_date():
    views = {o["attributes"]["title"]: o for o in _objects().values()
             if o["type"] == "index-pattern"}
    prefix = IndexConfig().prefix
    assert set(views) == {prefix, f"{prefix}-stories", f"{prefix}-pairs"}
    for title, view in views.items():
        time_field = view["attributes"]["timeFieldName"]
        assert _mapping_of_view(title)["properties"][time_field]["type"] == "date"


def test_every_visualisation_aggregates_a_mapped_aggregatable_field_of_its_view():
    objects = _objects()
    fields: dict[str, set[str]] = {}
    for obj in objects.values():
        if obj["type"] != "visualization":
            continue
        (ref,) = obj["references"]
        title = objects[ref["id"]]["attributes"]["title"]
        properties = _mapping_of_view(title)["properties"]
        for agg in json.loads(obj["attributes"]["visState"])["aggs"]:
            if "field" in agg["params"]:
                fields.setdefault(title, set()).add(agg["params"]["field"])
                assert properties[agg["params"]["field"]]["type"] in {
                    "keyword", "date", "integer", "long"}, (obj["id"], agg)
    prefix = IndexConfig().prefix
    assert fields == {
        prefix: {"published", "source", "topic", "entity_types", "language"},
        f"{prefix}-stories": {"first_day", "outlet_count"},
        f"{prefix}-pairs": {"grade", "direction", "story_id", "outlet_pair"}}


def test_references_resolve_and_each_visualisation_is_on_one_dashboard():
    objects = _objects()
    for obj in objects.values():
        for ref in obj["references"]:
            assert objects[ref["id"]]["type"] == ref["type"], ref
    shown: list[str] = []
    for dashboard in (o for o in objects.values() if o["type"] == "dashboard"):
        panels = json.loads(dashboard["attributes"]["panelsJSON"])
        names = {ref["name"]: ref["id"] for ref in dashboard["references"]}
        shown += [names[panel["panelRefName"]] for panel in panels]
    assert sorted(shown) == sorted(oid for oid, o in objects.items() if o["type"] == "visualization")


def test_compose_loads_the_file_into_kibana_once_it_is_healthy():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    setup = compose["services"]["kibana-setup"]
    assert setup["depends_on"]["kibana"]["condition"] == "service_healthy"
    assert any(volume.startswith("./kibana/saved_objects.ndjson:") for volume in setup["volumes"])
    assert "/api/saved_objects/_import?overwrite=true" in " ".join(setup["command"])
