"""Celery apps built for different settings run their stages with their own settings."""

from __future__ import annotations

from parawire.config import load_settings
from parawire.roof import tasks


def test_apps_for_different_settings_keep_their_own_tasks(tmp_path):
    first = tasks.create_app(load_settings(data_dir=tmp_path / "one"))
    second = tasks.create_app(load_settings(data_dir=tmp_path / "two"))
    assert first.tasks["parawire.index"] is not second.tasks["parawire.index"]
    first.tasks["parawire.index"].delay({}).get()
    assert (tmp_path / "one" / "index").is_dir() and not (tmp_path / "two").exists()
