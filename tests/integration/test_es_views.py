"""With the Elasticsearch backend, the stories and align stages keep the stories and pairs
views (indexer/es_views.py) in step with the store, on SQLite and PostgreSQL, against the
OpenSearch-API server: written once, grown stories rewritten, regrouped ones removed, a
view that missed a run brought back in step, pairs sent once."""

from __future__ import annotations

import uuid
from datetime import date

from parawire.config import Settings, load_settings
from parawire.indexer import ElasticsearchViews, open_views
from parawire.indexer.es_views import pair_document, story_document
from parawire.roof.pipeline import run_stage
from parawire.store import store_of
from tests.factories import store_synthetic_groups
from tests.integration.test_stories_stage import _add
from tests.unit.test_story_grouping import KERRY, NORTH_KOREA, NUCLEAR_DEAL


def _settings(store, tmp_path, url: str) -> Settings:
    return load_settings(data_dir=tmp_path, store={"url": store.url}, index={
        "backend": "elasticsearch", "url": url, "compatible_media_types": False,
        "prefix": f"views{uuid.uuid4().hex[:8]}"})


def _documents(views: ElasticsearchViews, view: str) -> dict[str, dict]:
    hits = views.client.search(index=views.alias(view), size=1000,
                               query={"match_all": {}})["hits"]["hits"]
    return {hit["_id"]: hit["_source"] for hit in hits}


def _stories_view_matches(views: ElasticsearchViews, store) -> None:
    expected = {str(story.id): story_document(story) for story in store.stories_after(0, 1000)}
    assert _documents(views, "stories") == expected


def test_the_stories_view_follows_the_stories_stage(store, tmp_path, opensearch_api_url):
    settings = _settings(store, tmp_path, opensearch_api_url)
    views = open_views(settings)
    assert views is not None
    _add(store, "n0", "outlet-a", NUCLEAR_DEAL[0], date(2020, 1, 6))
    _add(store, "p0", "outlet-a", NORTH_KOREA[0], date(2020, 1, 6))
    _add(store, "n1", "outlet-b", NUCLEAR_DEAL[1], date(2020, 1, 7))
    first = run_stage(settings, "stories")
    assert (first["stories_published"], first["stories_view_resynced"]) == (2, 0)
    _stories_view_matches(views, store)

    _add(store, "n2", "outlet-c", NUCLEAR_DEAL[2], date(2020, 1, 8))  # joins: the story grows
    _add(store, "k0", "outlet-a", KERRY[0], date(2020, 1, 8))
    grown = run_stage(settings, "stories")
    assert (grown["stories_published"], grown["stories_view_resynced"]) == (2, 0)
    _stories_view_matches(views, store)
    deal = next(doc for doc in _documents(views, "stories").values() if doc["outlet_count"] == 3)
    assert (deal["article_count"], deal["days"], deal["first_day"]) == (3, 3, "2020-01-06")

    run_stage(settings, "stories", redo=True, since=date(2020, 1, 6), until=date(2020, 1, 8))
    _stories_view_matches(views, store)  # the regrouped stories' old ids, if new ones, gone

    # A view that lost a story and holds one the store does not (a run that could not send)
    some_id = next(iter(_documents(views, "stories")))
    views.client.delete(index=views.alias("stories"), id=some_id, refresh=True)
    views.client.index(index=views.alias("stories"), id="99999", refresh=True,
                       document={"id": 99999, "language": "en", "article_count": 5})
    healed = run_stage(settings, "stories")
    assert healed["articles_grouped"] == 0 and healed["stories_view_resynced"] == 3 + 1
    _stories_view_matches(views, store)
    assert run_stage(settings, "stories")["stories_view_resynced"] == 0
    store_of(settings).engine.dispose()


def test_the_pairs_view_takes_each_pair_once(store, tmp_path, opensearch_api_url):
    settings = _settings(store, tmp_path, opensearch_api_url)
    store_synthetic_groups(settings, 120)
    run_stage(settings, "index")
    first = run_stage(settings, "align")
    views = open_views(settings)
    assert views is not None
    stored = store.pairs_after(0, 10_000)
    assert stored and first["pairs_published"] == len(stored) == views.count("pairs")
    assert _documents(views, "pairs") == {str(p.id): pair_document(p) for p in stored}
    assert run_stage(settings, "align")["pairs_published"] == 0
    assert views.count("pairs") == len(stored)
    store_of(settings).engine.dispose()
