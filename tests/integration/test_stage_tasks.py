"""Celery apps built for different settings run their stages with their own settings."""

from __future__ import annotations

import pytest

from parawire.config import load_settings
from parawire.roof import tasks


def test_apps_for_different_settings_keep_their_own_tasks(tmp_path):
    first = tasks.create_app(load_settings(data_dir=tmp_path / "one"))
    second = tasks.create_app(load_settings(data_dir=tmp_path / "two"))
    assert first.tasks["parawire.index"] is not second.tasks["parawire.index"]
    first.tasks["parawire.index"].delay({}).get()
    assert (tmp_path / "one" / "index").is_dir() and not (tmp_path / "two").exists()


def test_a_part_task_that_fails_records_the_failure_on_its_run(tmp_path):
    from parawire.aligner import ALIGN
    from parawire.errors import ParawireError
    from parawire.store import store_of
    from tests.factories import store_synthetic_groups

    settings = load_settings(data_dir=tmp_path / "data")
    store_synthetic_groups(settings, 40)
    opened = ALIGN.parts.open(settings, ALIGN.scope.parse({}))
    (tmp_path / "data" / "index").write_text("a file where the index should be")
    part = tasks.create_app(settings).tasks["parawire.align.part"]
    with pytest.raises(ParawireError, match="cannot open the tantivy index"):
        part.delay(opened.run_id, opened.parts[0]).get()  # as a worker runs it
    run = store_of(settings).alignment_run(opened.run_id)
    assert run.status == "failed" and run.reason.startswith("cannot open the tantivy index")
