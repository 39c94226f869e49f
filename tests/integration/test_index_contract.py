"""The SentenceIndex contract, run against both backends: tantivy (in memory) and the
Elasticsearch backend against osmem-server; plus hit-set parity between the two."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import tantivy
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parawire.aligner import AlignParams, brute_force_candidates, build_query, is_reference
from parawire.aligner.candidates import CANDIDATE_SOURCES, SearchContext
from parawire.config import load_settings
from parawire.errors import ParawireError
from parawire.indexer import (
    ElasticsearchIndex,
    HcsssQuery,
    SentenceIndex,
    TantivyIndex,
    elasticsearch_index,
    open_index,
)
from parawire.records import Article, Story
from parawire.roof.cli import main
from parawire.store import open_store
from parawire.store.rows import sentence_values
from parawire.store.schema import sentences as sentence_table
from parawire.textnorm import content_hash
from tests.factories import make_sentence
from tests.integration.test_hcsss_matches_oracle import corpora, engine_candidates, params_strategy

NAMES = ["elena varga", "port alder", "tuesday"]
NOUNS = ["council", "budget", "tram"]
_SCHEMA_BUILDER = tantivy.SchemaBuilder


def _es_index(url: str) -> ElasticsearchIndex:
    return ElasticsearchIndex(url, prefix=f"t{uuid.uuid4().hex[:12]}", compatible_media_types=False)


@pytest.fixture(params=["tantivy", "elasticsearch"])
def index(request: pytest.FixtureRequest) -> Iterator[SentenceIndex]:
    """An empty index of each backend."""
    if request.param == "tantivy":
        yield TantivyIndex(None)
        return
    es = _es_index(request.getfixturevalue("opensearch_api_url"))
    yield es
    es.clear()


def _fill(index: SentenceIndex, sentences) -> None:
    assert index.add(sentences) == len(sentences)
    index.commit()


def _query(**changes) -> HcsssQuery:
    base = {"proper_nouns": tuple(NAMES), "common_nouns": tuple(NOUNS), "min_cn_matches": 2,
            "text_terms": ("council", "budget", "tram", "vote"), "language": "en",
            "exclude_article_id": 99, "exclude_vkey": "none"}
    return HcsssQuery(**{**base, **changes})


def test_add_count_replace_and_max_id(index):
    assert index.count() == 0 and index.max_sentence_id() == 0
    _fill(index, [make_sentence(i, i, NAMES, NOUNS) for i in (3, 7, 5)])
    assert index.count() == 3 and index.max_sentence_id() == 7
    _fill(index, [make_sentence(7, 7, ["someone else"], NOUNS)])
    assert index.count() == 3
    assert [hit.sentence_id for hit in index.search(_query())] == [3, 5]


def test_constraints_filter_and_text_ranks(index):
    strong = make_sentence(1, 1, NAMES, NOUNS, text="Council budget tram vote vote")
    weak = make_sentence(2, 2, NAMES, ["council", "budget", "ferry"], text="Council budget ferry")
    one_noun = make_sentence(3, 3, NAMES, ["council", "ferry"])
    missing_name = make_sentence(4, 4, NAMES[:2], NOUNS)
    french = make_sentence(5, 5, NAMES, NOUNS, language="fr")
    late = make_sentence(6, 6, NAMES, NOUNS, published=date(2026, 3, 20))
    other_topic = make_sentence(7, 7, NAMES, NOUNS, topic="sports")
    other_outlet = make_sentence(8, 8, NAMES, NOUNS, source="outlet-b")
    _fill(index, [strong, weak, one_noun, missing_name, french, late, other_topic, other_outlet])
    day = date(2026, 3, 2).toordinal()

    hits = index.search(_query(day_from=day - 3, day_to=day + 3))
    assert {hit.sentence_id for hit in hits} == {1, 2, 7, 8}
    assert hits[0].sentence_id == 1 and hits[0].score > hits[-1].score >= 0
    assert {h.sentence_id for h in index.search(_query(topic="politics"))} == {1, 2, 6, 8}
    assert {h.sentence_id for h in index.search(_query(exclude_source="outlet-b"))} == {1, 2, 6, 7}
    assert {h.sentence_id for h in index.search(_query(min_cn_matches=3))} == {1, 6, 7, 8}
    assert {h.sentence_id for h in index.search(_query(language="fr"))} == {5}
    assert {h.sentence_id for h in index.search(_query(exclude_article_id=1, min_cn_matches=3,
                                                       topic="politics"))} == {6, 8}
    assert index.search(_query(language="de")) == []


def test_among_ids_searches_only_those_sentences(index, monkeypatch):
    """A search within a story: only the ids given can be hits, and a limit that the whole
    index would fill still reaches them (Elasticsearch's terms lists split at TERMS_CHUNK)."""
    monkeypatch.setattr(elasticsearch_index, "TERMS_CHUNK", 2)
    _fill(index, [make_sentence(i, i, NAMES, NOUNS) for i in range(1, 9)])
    assert {h.sentence_id for h in index.search(_query(among_ids=(2, 5, 8)))} == {2, 5, 8}
    assert len(index.search(_query(limit=2))) == 2
    assert {h.sentence_id for h in index.search(_query(among_ids=(7, 8), limit=2))} == {7, 8}
    assert index.search(_query(among_ids=())) == []


def test_min_pn_count_keeps_hits_that_hold_that_many_names(index):
    """A sparse reference's query: its own names required, and min_pn_count names in all."""
    _fill(index, [make_sentence(1, 1, NAMES[:2], NOUNS), make_sentence(2, 2, NAMES, NOUNS),
                  make_sentence(3, 3, [*NAMES, "ostra"], NOUNS),
                  make_sentence(4, 4, ["ines moura", "lisbon", "carris"], NOUNS)])

    def found(**changes) -> set[int]:
        return {hit.sentence_id for hit in index.search(_query(**changes))}

    assert found(proper_nouns=tuple(NAMES[:2])) == {1, 2, 3}
    assert found(proper_nouns=tuple(NAMES[:2]), min_pn_count=3) == {2, 3}
    assert found(proper_nouns=tuple(NAMES[:2]), min_pn_count=4) == {3}
    assert found(proper_nouns=(), min_pn_count=3) == {2, 3, 4}
    assert found(proper_nouns=tuple(NAMES), min_pn_count=2) == {2, 3}


def test_known_pair_found_own_article_and_verbatim_copy_excluded(index):
    a = make_sentence(1, 1, NAMES, NOUNS, text="Elena Varga backs the tram budget.")
    b = make_sentence(2, 2, NAMES, [*NOUNS, "vote"], source="outlet-b")
    same_article = make_sentence(3, 1, NAMES, NOUNS, position=1)
    verbatim = make_sentence(4, 4, NAMES, NOUNS, text="elena varga BACKS the tram budget")
    _fill(index, [a, b, same_article, verbatim])
    hits = index.search(build_query(a, AlignParams()))
    assert [hit.sentence_id for hit in hits] == [2]
    assert index.score_of(2, ("tram", "budget")) > 0
    assert index.score_of(2, ("helicopter",)) == 0
    assert index.score_of(999, ("tram",)) == 0


def test_ids_iterate_in_order_across_pages_and_languages(index):
    sentences = [make_sentence(i, i, NAMES, NOUNS, language="en" if i % 3 else "fr")
                 for i in range(1, 26)]
    _fill(index, sentences)
    assert list(index.sentence_ids(page_size=4)) == list(range(1, 26))


def test_stats_count_by_language_topic_outlet_and_day(index):
    sentences = [
        make_sentence(1, 1, NAMES, NOUNS),
        make_sentence(2, 2, NAMES, NOUNS, language="fr", topic="sports", source="outlet-b"),
        make_sentence(3, 3, NAMES, NOUNS, published=date(2026, 3, 4), source="outlet-b"),
        make_sentence(4, 4, NAMES, NOUNS, published=None, topic="sports"),
    ]
    _fill(index, sentences)
    _fill(index, [make_sentence(1, 1, NAMES, NOUNS, topic="economy")])  # a replaced copy
    stats = index.stats()
    assert stats.total == 4
    assert stats.by_language == {"en": 3, "fr": 1}
    assert stats.by_topic == {"economy": 1, "politics": 1, "sports": 2}
    assert stats.by_source == {"outlet-a": 2, "outlet-b": 2}
    assert stats.by_day == {"2026-03-02": 2, "2026-03-04": 1}


def test_clear_empties_and_the_index_fills_again(index):
    _fill(index, [make_sentence(i, i, NAMES, NOUNS) for i in (1, 2)])
    index.clear()
    assert index.count() == 0 and index.stats().total == 0 and list(index.sentence_ids()) == []
    _fill(index, [make_sentence(5, 5, NAMES, NOUNS)])
    assert index.count() == 1 and index.max_sentence_id() == 5


@pytest.fixture(scope="module")
def parity_pair(opensearch_api_url) -> tuple[TantivyIndex, ElasticsearchIndex]:
    es = _es_index(opensearch_api_url)
    yield TantivyIndex(None), es
    es.clear()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sentences=corpora(), params=params_strategy)
def test_same_hcsss_hits_on_both_backends(parity_pair, sentences, params):
    """Scores differ between engines; the sets of hits of every reference must not."""
    tantivy_index, es_index = parity_pair
    for index in parity_pair:
        index.clear()
        _fill(index, sentences)
    assert engine_candidates(es_index, sentences, params) == engine_candidates(
        tantivy_index, sentences, params)


@pytest.mark.parametrize("url", ["http://127.0.0.1:9", "not a url"])
def test_unreachable_or_bad_url_is_one_line_error(url):
    settings_ = load_settings(index={"backend": "elasticsearch", "url": url})
    with pytest.raises(ParawireError) as error:
        open_index(settings_)
    message = str(error.value)
    assert "\n" not in message and url in message and "cannot reach Elasticsearch" in message


def test_open_index_picks_the_configured_backend(opensearch_api_url, tmp_path):
    es = open_index(load_settings(index={"backend": "elasticsearch", "url": opensearch_api_url,
                                         "compatible_media_types": False, "prefix": "pick"}))
    assert isinstance(es, ElasticsearchIndex) and es.alias("en") == "pick-en"
    assert isinstance(open_index(load_settings(data_dir=tmp_path)), TantivyIndex)


def test_a_tantivy_index_with_an_older_schema_asks_for_a_rebuild(tmp_path):
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    old = tantivy.Index(builder.build(), path=str(tmp_path))
    writer = old.writer()
    writer.add_document(tantivy.Document(id=7))
    writer.commit()
    with pytest.raises(ParawireError, match="older schema: run `parawire index rebuild`"):
        TantivyIndex(tmp_path)
    rebuilt = TantivyIndex(tmp_path, recreate=True)
    rebuilt.add([make_sentence(1, 1, ["elena varga"], ["council"])])
    rebuilt.commit()
    assert rebuilt.count() == 1 and TantivyIndex(tmp_path).max_sentence_id() == 1


class _BuilderBeforeNameCounts:
    """tantivy's schema builder as it was before the index held each sentence's name count."""

    def __init__(self) -> None:
        self._builder = _SCHEMA_BUILDER()

    def add_integer_field(self, name: str, **options):
        if name != "n_pn":
            self._builder.add_integer_field(name, **options)
        return self

    def __getattr__(self, name: str):
        return getattr(self._builder, name)


def test_a_tantivy_index_without_name_counts_asks_for_a_rebuild(tmp_path, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(tantivy, "SchemaBuilder", _BuilderBeforeNameCounts)
        old = TantivyIndex(tmp_path)
        old.add([make_sentence(1, 1, NAMES, NOUNS)])
        old.commit()
    del old
    with pytest.raises(ParawireError, match="older schema: run `parawire index rebuild`"):
        TantivyIndex(tmp_path)
    rebuilt = TantivyIndex(tmp_path, recreate=True)
    rebuilt.add([make_sentence(1, 1, NAMES[:2], NOUNS)])
    rebuilt.commit()
    assert [h.sentence_id for h in rebuilt.search(_query(proper_nouns=tuple(NAMES[:2]),
                                                         min_pn_count=2))] == [1]


def test_osmem_rejects_compatible_media_types_with_a_clear_error(opensearch_api_url):
    """The default client headers fail on an OpenSearch-API server, as one line."""
    es = ElasticsearchIndex(opensearch_api_url, prefix="compat")
    with pytest.raises(ParawireError, match="406"):
        es.add([make_sentence(1, 1, NAMES, NOUNS)])


def test_sentence_of_an_unknown_language_code_is_refused(opensearch_api_url):
    es = _es_index(opensearch_api_url)
    with pytest.raises(ParawireError, match="ISO 639"):
        es.add([make_sentence(1, 1, NAMES, NOUNS, language="English!")])


class _Throttling(BaseHTTPRequestHandler):
    """Forwards to the real server, answering the first `busy` bulk requests with 429."""

    upstream = ""
    busy = 0
    bulk_calls = 0

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0)) or None
        if "_bulk" in self.path:
            type(self).bulk_calls += 1
            if type(self).bulk_calls <= self.busy:
                self._answer(429, b'{"error":{"type":"es_rejected_execution_exception",'
                                  b'"reason":"queue full"},"status":429}')
                return
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "accept")}
        request = urllib.request.Request(self.upstream + self.path, data=body, method=self.command,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                self._answer(response.status, response.read(), response.headers)
        except urllib.error.HTTPError as error:
            self._answer(error.code, error.read(), error.headers)

    def _answer(self, status: int, payload: bytes, upstream_headers=None) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        product = (upstream_headers or {}).get("x-elastic-product")
        if product:
            self.send_header("x-elastic-product", product)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _forward

    def log_message(self, *args) -> None:
        return None


def test_bulk_retries_429_with_backoff(opensearch_api_url):
    handler = type("Handler", (_Throttling,), {"upstream": opensearch_api_url, "busy": 2})
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{proxy.server_address[1]}"
        es = ElasticsearchIndex(url, prefix=f"t{uuid.uuid4().hex[:12]}",
                                compatible_media_types=False, bulk_retries=3)
        _fill(es, [make_sentence(i, i, NAMES, NOUNS) for i in range(1, 6)])
        assert handler.bulk_calls == 3 and es.count() == 5
        handler.busy, handler.bulk_calls = 10, 0
        with pytest.raises(ParawireError, match="429"):
            ElasticsearchIndex(url, prefix="gives-up", compatible_media_types=False,
                               bulk_retries=1).add([make_sentence(9, 9, NAMES, NOUNS)])
        assert handler.bulk_calls == 2
        es.clear()
    finally:
        proxy.shutdown()


@pytest.mark.parametrize("backend", ["tantivy", "elasticsearch"])
def test_cli_index_rebuild_and_stats_on_each_backend(backend, request, tmp_path, monkeypatch):
    if backend == "elasticsearch":
        monkeypatch.setenv("PARAWIRE_INDEX__BACKEND", "elasticsearch")
        monkeypatch.setenv("PARAWIRE_INDEX__URL", request.getfixturevalue("opensearch_api_url"))
        monkeypatch.setenv("PARAWIRE_INDEX__PREFIX", f"cli{uuid.uuid4().hex[:8]}")
        monkeypatch.setenv("PARAWIRE_INDEX__COMPATIBLE_MEDIA_TYPES", "false")
    store = open_store(load_settings().store_url)
    for number, (language, source) in enumerate([("en", "outlet-a"), ("fr", "outlet-b")]):
        text = ["The council voted the tram budget on Tuesday after a long debate.",
                "Le conseil a adopté mardi le budget du tramway, après trois heures."][number]
        article = Article(url=f"https://example.org/{number}", source=source, language=language,
                          title="", text=text, published=date(2026, 3, 2), topic="politics",
                          content_hash=content_hash(text))
        store.add_article(article)
        article_id = article.id
        store.save_annotations(article_id, [
            make_sentence(None, article_id, NAMES, NOUNS, language=language, source=source,
                          position=position) for position in range(3)])
    runner = CliRunner()

    def run(*args: str) -> dict:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    assert run("index") == {"indexed": 6, "index_size": 6}
    assert run("index") == {"indexed": 0, "index_size": 6}
    assert run("index", "rebuild") == {"indexed": 6, "index_size": 6}
    stats = run("index", "stats")
    assert stats == {"backend": backend, "total": 6, "by_language": {"en": 3, "fr": 3},
                     "by_topic": {"politics": 6}, "by_source": {"outlet-a": 3, "outlet-b": 3},
                     "by_day": {"2026-03-02": 6}}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(sentences=corpora(), params=params_strategy,
       stories=st.lists(st.sampled_from([None, 1, 2]), min_size=6, max_size=6))
def test_within_stories_the_hcsss_source_finds_exactly_the_oracles_pairs(
        index, story_search_store, sentences, params, stories):
    """align.within = "story": the source keeps only hits among the reference's story's
    sentences from other outlets, as the brute-force oracle does, on each backend."""
    store = story_search_store
    with store.engine.begin() as conn:
        conn.execute(sentence_table.delete())
        conn.execute(sentence_table.insert(), [sentence_values(s) | {"id": s.id} for s in sentences])
    store.delete_stories(s.id for s in store.stories_between("en"))
    groups = {story: [a for a, s in enumerate(stories, start=1) if s == story] for story in (1, 2)}
    store.save_stories([Story("en", None, None, ids) for ids in groups.values() if ids])
    index.clear()
    _fill(index, sentences)
    params = params.model_copy(update={"beta": 0.0, "within": "story"})
    references = [s for s in sentences if is_reference(s.pn, s.cn, params.constraints)]
    partners = store.story_partners(s.id for s in references)
    context = SearchContext(store, index, params, Counter(), partners)
    found = CANDIDATE_SOURCES["hcsss"].candidates(references, context)
    assert {(c.reference.id, c.sentence.id) for c in found} == brute_force_candidates(
        sentences, params, partners=partners)
    assert all(c.story_id == partners[c.reference.id][0] for c in found)


@pytest.fixture(scope="module")
def story_search_store(tmp_path_factory: pytest.TempPathFactory):
    """A store with articles 1 to 6 (the corpora's), for stories over them."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('stories') / 'store.db'}")
    for n in range(1, 7):
        store.add_article(Article(url=f"http://news.test/{n}", source="outlet-a", language="en",
                                  title=f"t{n}", text=f"text {n}", published=date(2026, 3, 1),
                                  content_hash=content_hash(f"text {n}")))
    return store
