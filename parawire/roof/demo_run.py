"""`parawire demo`: the whole pipeline on the bundled demo site."""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from parawire.config import Settings
from parawire.demo import (
    build_site,
    date_range,
    load_meantime,
    meantime_outlets,
    serve_demo,
    sources_toml,
)
from parawire.errors import ParawireError
from parawire.roof.pipeline import Pipeline
from parawire.store import store_of


def run_demo(settings: Settings) -> str:
    """Serve the demo site, run every stage on it, and summarise what came out."""
    started = time.monotonic()
    first, last = date_range()
    sources = settings.data_dir / "demo-sources.toml"
    sources.parent.mkdir(parents=True, exist_ok=True)
    with serve_demo() as base:
        sources.write_text(sources_toml(base), encoding="utf-8")
        crawl = {"since": first.date(), "until": last.date(), "sources": str(sources)}
        report = Pipeline(settings).run_all({"crawl": crawl})
    store = store_of(settings)
    run_id = report["align"]["run_id"]
    rows = list(store.pair_rows(run_id))
    cross_outlet = sum(1 for row in rows if row.input.source != row.target.source)
    counts, corpus, stories = store.counts(), report["export"], store.story_counts()
    return "\n".join([
        f"demo finished in {time.monotonic() - started:.1f}s",
        f"  articles:   {counts['articles']} (stored this run: {report['crawl'].get('stored', 0)})",
        f"  sentences:  {counts['sentences']}",
        f"  stories:    {stories['stories']} ({stories['multi_outlet_stories']} told by "
        f"several outlets)",
        f"  references: {report['align'].get('references_done', 0)}",
        f"  pairs mined: {len(rows)} by alignment run {run_id} "
        f"({cross_outlet} with input and target from different outlets)",
        f"  pairs kept:  {corpus['pairs_kept']} in the corpus (the best target of each input)",
        f"  examples written: {corpus['examples_written']} (the kept pairs and "
        f"{corpus['flipped_copies']} flipped copies; train/valid/test "
        f"{'/'.join(str(n) for n in corpus['examples'].values())})",
        f"  corpus:     {corpus['path']} (datasheet.md says the same)",
    ])


_SITE_MARK = "# Written by `parawire demo-site`"


def serve_demo_site(sources: Path, port: int = 0) -> None:
    """Serve the demo site until Ctrl-C or SIGTERM. Its sources file is written once the site
    answers (a script may wait for the file) and removed when it stops; a file that
    `demo-site` did not write is never replaced."""
    if sources.exists() and not sources.read_text(encoding="utf-8").startswith(_SITE_MARK):
        raise ParawireError(f"{sources} exists and was not written by `parawire demo-site`: "
                            "choose another --sources file")
    first, last = date_range()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with serve_demo(port=port) as base:
        sources.write_text(f"{_SITE_MARK} for the demo site at {base}; removed when it "
                           f"stops.\n\n{sources_toml(base)}", encoding="utf-8")
        click.echo(f"demo site at {base}, sources file {sources}; its articles appeared "
                   f"{first:%Y-%m-%d}..{last:%Y-%m-%d} (Ctrl-C stops it)", err=True)
        try:
            threading.Event().wait()
        finally:
            sources.unlink(missing_ok=True)


def run_meantime(settings: Settings, folder: Path, language: str) -> dict[str, Any]:
    """MEANTIME's articles in `language` (folder/<language>.jsonl) served as a three-outlet
    news site on 127.0.0.1, then crawled, annotated, indexed, aligned and exported with these
    settings (nlp.models.<language> names the pipeline); returns each stage's counts."""
    articles = load_meantime(folder, language)
    outlets = meantime_outlets(language)
    days = [a.published.date() for a in articles]
    sources = settings.data_dir / f"meantime-{language}-sources.toml"
    sources.parent.mkdir(parents=True, exist_ok=True)
    with serve_demo(build=lambda base: build_site(base, outlets, articles)) as base:
        sources.write_text(sources_toml(base, outlets, language), encoding="utf-8")
        crawl = {"since": min(days), "until": max(days), "sources": str(sources),
                 "all_topics": True}
        return Pipeline(settings).run_all({"crawl": crawl})
