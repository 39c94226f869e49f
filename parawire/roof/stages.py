"""The one table of stages. The Celery tasks, the pipeline and the CLI commands are all
derived from it: adding a stage is one entry here plus its room's code."""

from __future__ import annotations

from parawire.aligner import ALIGN, EXPORT, STORIES
from parawire.crawler import CRAWL, INGEST
from parawire.errors import ParawireError
from parawire.indexer import EMBED, INDEX
from parawire.nlp import ANNOTATE
from parawire.stage import Stage
from parawire.trainer import TRAIN

STAGES: tuple[Stage, ...] = (CRAWL, INGEST, ANNOTATE, INDEX, STORIES, EMBED, ALIGN, EXPORT,
                              TRAIN)
# What `parawire pipeline` and the demo run, in order (training needs a corpus of its own).
PIPELINE = ("crawl", "annotate", "index", "stories", "align", "export")


def stage_named(name: str) -> Stage:
    """The stage with this name."""
    for stage in STAGES:
        if stage.name == name:
            return stage
    raise ParawireError(f"no stage {name!r} (stages: {', '.join(s.name for s in STAGES)})")
