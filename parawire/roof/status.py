"""`parawire status`: what the store and the index hold, and the latest runs."""

from __future__ import annotations

from parawire.config import Settings
from parawire.errors import ParawireError
from parawire.indexer import open_index
from parawire.records import OutletHealth, Run
from parawire.store import open_store


def status_report(settings: Settings) -> str:
    """A plain-text report for operators; a folder with no store is refused, not given a
    new empty one."""
    if settings.store_file is not None and not settings.store_file.exists():
        raise ParawireError(f"no parawire store here ({settings.store_file}): run this in your "
                            "project folder, or point --config, PARAWIRE_DATA_DIR or store.url "
                            "at one")
    store = open_store(settings.store_url)
    counts, stories = store.counts(), store.story_counts()
    lines = [
        f"store:  {store.engine.url.render_as_string(hide_password=True)}",
        f"index:  {settings.index.backend} at {settings.index_path}"
        f" ({open_index(settings).count()} sentences)",
        f"broker: {settings.broker.url or 'eager (in process)'}",
        "",
        f"articles {counts['articles']} (annotated {counts['articles_annotated']}), "
        f"sentences {counts['sentences']}, pairs {counts['pairs']}",
        f"stories {stories['stories']} (told by several outlets "
        f"{stories['multi_outlet_stories']}, of one article {stories['single_article_stories']}), "
        f"articles in no story {stories['articles_in_no_story']}",
        "",
        "crawl and ingest runs:",
    ]
    for run in store.crawl_runs(limit=5):
        files = run.parameters.get("ingest")
        window = (f"ingest of {len(files)} file(s)" if files is not None
                  else f"{run.parameters.get('since')}..{run.parameters.get('until')}")
        shown = ", ".join(f"{k} {v}" for k, v in sorted(run.counts.items()))
        lines.append(f"  #{run.id} {_state(run)} {window} {run.started_at:%Y-%m-%d %H:%M} {shown}")
    lines.append("outlets (as their latest crawl left them):")
    lines.extend(outlet_lines(store.outlet_health()) or ["  none crawled yet"])
    lines.append("alignment runs:")
    for run in store.alignment_runs(limit=5):
        shown = ", ".join(f"{k} {v}" for k, v in sorted(run.counts.items())
                          if k != "references_selected")
        done = store.count_done_references(run.id) if run.id is not None else 0
        selected = run.counts.get("references_selected", done)
        lines.append(f"  #{run.id} {_state(run)} references done {done} of {selected}; {shown}")
    return "\n".join(lines)


def outlet_lines(outlets: dict[str, OutletHealth]) -> list[str]:
    """One line per outlet: its latest verdict, last success, failed days and last error."""
    width = max((len(name) for name in outlets), default=0)
    lines = []
    for name, health in outlets.items():
        success = f"{health.last_success:%Y-%m-%d %H:%M}" if health.last_success else "never"
        line = (f"  {name:<{width}} {health.state:<7} last success {success}, "
                f"failed days {health.failed_days}")
        if health.last_error_at is not None:
            line += f", last error {health.last_error_at:%Y-%m-%d %H:%M}: {health.last_error}"
        lines.append(line)
    return lines


def _state(run: Run) -> str:
    """A run's state, with the reason when it failed or was interrupted."""
    return f"{run.status} ({run.reason})" if run.reason else run.status
