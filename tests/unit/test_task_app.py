"""The Celery app follows the settings it is given, even after a first use."""

from __future__ import annotations

from parawire.config import load_settings
from parawire.roof import tasks


def test_switching_broker_switches_result_backend(monkeypatch):
    monkeypatch.setenv("PARAWIRE_BROKER__URL", "redis://127.0.0.1:1/3")
    tasks.configure(load_settings())
    assert tasks.app.backend.connparams["db"] == 3
    assert not tasks.app.conf.task_always_eager

    monkeypatch.setenv("PARAWIRE_BROKER__URL", "redis://127.0.0.1:1/4")
    tasks.configure(load_settings())
    assert tasks.app.backend.connparams["db"] == 4

    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    tasks.configure(load_settings())
    assert tasks.app.conf.task_always_eager
    assert type(tasks.app.backend).__name__ == "DisabledBackend"
