"""The titles source: within stories, a title's candidates are exactly the other outlets'
titles of its story that pass the search's filters; searching the window, it finds none."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parawire.aligner.candidates import CANDIDATE_SOURCES, SearchContext
from parawire.aligner.oracle import within_filters
from parawire.indexer import TantivyIndex
from parawire.records import Article, Story
from parawire.store import open_store
from parawire.store.rows import sentence_values
from parawire.store.schema import sentences as sentence_table
from parawire.textnorm import content_hash
from tests.integration.test_hcsss_matches_oracle import corpora, params_strategy


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    """A store with articles 1 to 6 (the corpora's)."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('titles') / 'store.db'}")
    for n in range(1, 7):
        store.add_article(Article(url=f"http://news.test/{n}", source="outlet-a", language="en",
                                  title=f"t{n}", text=f"text {n}", published=date(2026, 3, 1),
                                  content_hash=content_hash(f"text {n}")))
    return store


def _oracle(sentences, params, story_of: dict[int, int]) -> set[tuple[int, int]]:
    """Every (title, title) of one story, other outlets, within the search's filters."""
    return {(r.id, c.id) for r in sentences for c in sentences
            if r.is_title and c.is_title and r.id != c.id and r.source != c.source
            and story_of.get(r.article_id) is not None
            and story_of.get(r.article_id) == story_of.get(c.article_id)
            and within_filters(r, c, params)}


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sentences=corpora(), params=params_strategy,
       stories=st.lists(st.sampled_from([None, 1, 2]), min_size=6, max_size=6))
def test_a_titles_candidates_are_its_storys_other_titles(store, sentences, params, stories):
    with store.engine.begin() as conn:
        conn.execute(sentence_table.delete())
        conn.execute(sentence_table.insert(), [sentence_values(s) | {"id": s.id} for s in sentences])
    store.delete_stories(s.id for s in store.stories_between("en"))
    groups = {story: [a for a, s in enumerate(stories, start=1) if s == story] for story in (1, 2)}
    saved = [Story("en", None, None, ids) for ids in groups.values() if ids]
    store.save_stories(saved)
    story_of = {article: story.id for story in saved for article in story.article_ids}
    source = CANDIDATE_SOURCES["titles"]
    story_params = params.model_copy(update={"within": "story"})
    partners = store.story_partners(s.id for s in sentences)
    counts: Counter[str] = Counter()
    context = SearchContext(store, TantivyIndex(None), story_params, counts, partners)
    found = source.candidates(sentences, context)
    assert {(c.reference.id, c.sentence.id) for c in found} == _oracle(sentences, story_params,
                                                                        story_of)
    assert all(c.story_id == story_of[c.reference.article_id] and c.source == "titles"
               for c in found)
    assert counts["title_candidates"] == len(found)
    window = SearchContext(store, TantivyIndex(None), params, Counter(), None)
    assert source.candidates(sentences, window) == []
