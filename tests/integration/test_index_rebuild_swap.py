"""`index rebuild` builds the new tantivy index beside the old one: a rebuild that fails
half-way leaves the old index whole; one that succeeds replaces it and leaves nothing behind."""

from __future__ import annotations

import pytest

from parawire.config import load_settings
from parawire.indexer import open_index
from parawire.roof.pipeline import run_stage
from parawire.store import Store
from tests.factories import store_synthetic_groups as fill


def test_a_failed_rebuild_keeps_the_old_index(monkeypatch):
    monkeypatch.setenv("PARAWIRE_INDEX__COMMIT_EVERY", "5")
    settings = load_settings()
    fill(settings, 40)
    assert run_stage(settings, "index")["index_size"] == 40
    reading = Store.iter_sentences

    def disk_fills_up(self, *args, **kwargs):
        batches = reading(self, *args, batch_size=10)
        yield next(batches)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Store, "iter_sentences", disk_fills_up)
    with pytest.raises(OSError, match="No space left"):
        run_stage(settings, "index", rebuild=True)
    assert open_index(settings).count() == 40  # the old index, whole

    monkeypatch.setattr(Store, "iter_sentences", reading)
    assert run_stage(settings, "index", rebuild=True) == {"indexed": 40, "index_size": 40}
    assert open_index(settings).count() == 40
    assert sorted(p.name for p in settings.index_path.parent.iterdir()
                  if p.name.startswith("index")) == ["index"]
