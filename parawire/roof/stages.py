"""The pipeline's stages as plain functions of the settings (the tasks call these)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from parawire import aligner, crawler, nlp
from parawire.aligner import AlignParams, DatasetOptions
from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import fill_index, open_index
from parawire.store import store_of


def crawl(settings: Settings, since: date, until: date, sources: str | None = None,
          scope: dict | None = None) -> dict[str, int]:
    """Crawl the sources for articles published in [since, until] (scope: crawler.CrawlScope)."""
    return crawler.run_crawl(settings, since, until, sources,
                             crawler.CrawlScope(**scope) if scope else None)


def annotate(settings: Settings) -> dict[str, int]:
    """Annotate every article that has no sentences yet."""
    return nlp.annotate_pending(settings, store_of(settings))


def index(settings: Settings, rebuild: bool = False) -> dict[str, int]:
    """Add sentences the index does not hold yet (all of them, after a clear, on rebuild)."""
    store, target = store_of(settings), open_index(settings, rebuild=rebuild)
    if rebuild:
        target.clear()
    return {"indexed": fill_index(store, target, settings.index.commit_every),
            "index_size": target.count()}


def align_batch(settings: Settings, run_id: int, params: AlignParams,
                reference_ids: list[int]) -> dict[str, int]:
    """Search one batch of references of a run."""
    return aligner.align_batch(store_of(settings), open_index(settings), run_id, params,
                               reference_ids)


def export(settings: Settings, run_id: int | None = None, out: Path | None = None,
           fmt: str = "jsonl", options: DatasetOptions | None = None) -> dict:
    """Write a run's dataset (the latest run by default) with its datasheet."""
    store = store_of(settings)
    if run_id is None:
        runs = store.alignment_runs(limit=1)
        if not runs:
            raise ParawireError("no alignment run to export: run `parawire align` first")
        run_id = runs[0].id
    assert run_id is not None
    path = out or settings.export_dir / f"run-{run_id}"
    sheet = aligner.export_run(store, run_id, path, fmt, options)
    return {"run_id": run_id, "path": str(path), "examples": sheet["examples"],
            "mined_pairs": sheet["mined_pairs"]}
