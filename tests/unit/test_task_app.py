"""Each Celery app follows the settings it is built for, however many came before."""

from __future__ import annotations

from parawire.config import load_settings
from parawire.roof import tasks


def test_switching_broker_switches_result_backend(monkeypatch):
    monkeypatch.setenv("PARAWIRE_BROKER__URL", "redis://127.0.0.1:1/3")
    app = tasks.create_app(load_settings())
    assert app.backend.connparams["db"] == 3
    assert not app.conf.task_always_eager

    monkeypatch.setenv("PARAWIRE_BROKER__URL", "redis://127.0.0.1:1/4")
    app = tasks.create_app(load_settings())
    assert app.backend.connparams["db"] == 4

    monkeypatch.delenv("PARAWIRE_BROKER__URL")
    app = tasks.create_app(load_settings())
    assert app.conf.task_always_eager
    assert type(app.backend).__name__ == "DisabledBackend"
