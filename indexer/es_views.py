"""Stories and pairs in Elasticsearch, beside the sentences, for the compose users' Kibana
dashboards (kibana/saved_objects.ndjson): indexes `P-stories-1` and `P-pairs-1` behind the
aliases `P-stories` and `P-pairs`, one document per record, by its id.

The store keeps the records; these indexes are views of them, brought in step at the end of
the stories and align stages. Pairs are only ever added, so their view takes the pairs above
the highest id it holds. Stories grow as articles join them and are regrouped by
`stories --redo`, so their view is rewritten whole whenever its totals (stories, articles in
them) differ from the store's after the stories the stage touched were sent."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from parawire.indexer.elasticsearch_index import ElasticsearchIndex, es_errors
from parawire.records import PairListing, Story
from parawire.store import Store

PAGE = 1000
_DAY = {"type": "date", "format": "strict_date"}

STORY_MAPPING: dict[str, Any] = {"dynamic": "strict", "properties": {
    "id": {"type": "long"}, "language": {"type": "keyword"},
    "first_day": _DAY, "last_day": _DAY, "headline": {"type": "text"},
    "outlets": {"type": "keyword"}, "outlet_count": {"type": "integer"},
    "article_count": {"type": "integer"}, "days": {"type": "integer"},
}}
PAIR_MAPPING: dict[str, Any] = {"dynamic": "strict", "properties": {
    "id": {"type": "long"}, "run_id": {"type": "long"}, "story_id": {"type": "long"},
    "grade": {"type": "integer"}, "direction": {"type": "keyword"},
    "probability": {"type": "float"}, "score": {"type": "float"}, "published": _DAY,
    "input_source": {"type": "keyword"}, "target_source": {"type": "keyword"},
    "outlet_pair": {"type": "keyword"},
    "input_text": {"type": "text"}, "target_text": {"type": "text"},
}}
VIEWS = {"stories": STORY_MAPPING, "pairs": PAIR_MAPPING}


def story_document(story: Story) -> dict[str, Any]:
    """What the stories view holds of a story."""
    days = (story.last_day - story.first_day).days + 1 if story.first_day and story.last_day \
        else None
    document = {"id": story.id, "language": story.language,
                "first_day": story.first_day.isoformat() if story.first_day else None,
                "last_day": story.last_day.isoformat() if story.last_day else None,
                "headline": story.headline, "outlets": sorted(set(story.outlets)),
                "outlet_count": len(set(story.outlets)), "article_count": len(story.article_ids),
                "days": days}
    return {name: value for name, value in document.items() if value is not None}


def pair_document(pair: PairListing) -> dict[str, Any]:
    """What the pairs view holds of a pair: its grade and direction, its outlets, its day
    (the input's) and both sentences."""
    published = pair.input.published or pair.target.published
    document = {"id": pair.id, "run_id": pair.run_id, "story_id": pair.story_id,
                "grade": pair.grade, "direction": pair.direction,
                "probability": pair.probability, "score": pair.score,
                "published": published.isoformat() if published else None,
                "input_source": pair.input.source, "target_source": pair.target.source,
                "outlet_pair": " | ".join(sorted((pair.input.source, pair.target.source))),
                "input_text": pair.input.text, "target_text": pair.target.text}
    return {name: value for name, value in document.items() if value is not None}


class ElasticsearchViews:
    """The stories and pairs views on the cluster of an Elasticsearch sentence index."""

    def __init__(self, index: ElasticsearchIndex) -> None:
        self.index, self.client, self.url = index, index.client, index.url
        self._ready: set[str] = set()

    def alias(self, view: str) -> str:
        """The alias a view is read by (`P-stories`, `P-pairs`)."""
        return f"{self.index.prefix}-{view}"

    def _ensure(self, view: str) -> str:
        alias = self.alias(view)
        if view not in self._ready:
            with es_errors(self.url):
                if not self.client.indices.exists_alias(name=alias):
                    self.client.indices.create(index=f"{alias}-1", aliases={alias: {}},
                                               settings={"number_of_shards": 1},
                                               mappings=VIEWS[view])
            self._ready.add(view)
        return alias

    def _send(self, view: str, documents: Iterable[dict[str, Any]], record: str) -> int:
        index = self._ensure(view)
        sent = self.index.bulk(({"_op_type": "index", "_index": index, "_id": str(doc["id"]),
                                 "_source": doc} for doc in documents), record)
        with es_errors(self.url):
            self.client.indices.refresh(index=index)
        return sent

    def publish_stories(self, stories: Iterable[Story]) -> int:
        """Write these stories (new or grown) into the stories view."""
        return self._send("stories", map(story_document, stories), "story")

    def sync_stories(self, store: Store) -> int:
        """Rewrite the stories view from the store when its totals differ from the store's
        (an earlier run that could not send, or stories regrouped away); returns how many
        documents were written or removed (0 when already in step)."""
        if self._totals("stories", "article_count") == store.story_totals():
            return 0
        written, kept, after = 0, set[str](), 0
        while page := store.stories_after(after, PAGE):
            written += self.publish_stories(page)
            kept.update(str(story.id) for story in page)
            after = max(story.id or 0 for story in page)
        gone = [doc_id for doc_id in self._ids("stories") if doc_id not in kept]
        removed = self.index.bulk(({"_op_type": "delete", "_index": self.alias("stories"),
                                    "_id": doc_id} for doc_id in gone), "story")
        with es_errors(self.url):
            self.client.indices.refresh(index=self.alias("stories"))
        return written + removed

    def sync_pairs(self, store: Store) -> int:
        """Write the store's pairs above the highest id the pairs view holds; returns how many."""
        after, written = self._max_id("pairs"), 0
        while page := store.pairs_after(after, PAGE):
            written += self._send("pairs", map(pair_document, page), "pair")
            after = page[-1].id
        return written

    def count(self, view: str) -> int:
        """How many documents a view holds."""
        with es_errors(self.url):
            return int(self.client.count(index=self._ensure(view))["count"])

    def _totals(self, view: str, summed: str) -> tuple[int, int]:
        with es_errors(self.url):
            response = self.client.search(index=self._ensure(view), size=0,
                                          track_total_hits=True,
                                          aggs={"total": {"sum": {"field": summed}}})
        return (int(response["hits"]["total"]["value"]),
                int(response["aggregations"]["total"]["value"] or 0))

    def _max_id(self, view: str) -> int:
        with es_errors(self.url):
            response = self.client.search(index=self._ensure(view), size=0,
                                          aggs={"top": {"max": {"field": "id"}}})
        value = response["aggregations"]["top"]["value"]
        return int(value) if value is not None else 0

    def _ids(self, view: str) -> Iterator[str]:
        after: list[Any] | None = None
        while True:
            with es_errors(self.url):
                page = self.client.search(index=self.alias(view), size=PAGE, sort=[{"id": "asc"}],
                                          query={"match_all": {}}, source=False,
                                          search_after=after)["hits"]["hits"]
            yield from (hit["_id"] for hit in page)
            if len(page) < PAGE:
                return
            after = page[-1]["sort"]
