"""The index stage, in the stage contract's shape."""

import shutil

from parawire.config import Settings
from parawire.indexer.filling import fill_index
from parawire.indexer.opening import open_index
from parawire.indexer.tantivy_index import TantivyIndex
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import store_of


class IndexScope(Scope):
    """Index the sentences the index does not hold yet, or every one after a clear."""

    rebuild: bool = option(False, "Re-create the index from the store.", cli=False)


def index(settings: Settings, scope: IndexScope) -> Counts:
    """Add the sentences the index does not hold yet (all of them, after a clear, on rebuild;
    a tantivy index is rebuilt beside the old one, which stays until the new one is whole)."""
    if scope.rebuild and settings.index.backend == "tantivy":
        return _rebuild_beside(settings)
    target = open_index(settings, rebuild=scope.rebuild)
    if scope.rebuild:
        target.clear()
    return {"indexed": fill_index(store_of(settings), target, settings.index.commit_every),
            "index_size": target.count()}


def _rebuild_beside(settings: Settings) -> Counts:
    """Build a new tantivy index in a folder beside the index and swap it in only once it
    is whole: a rebuild that fails (a damaged store, a full disk) leaves the old index as it
    was, and the half-built one is started over by the next rebuild."""
    path = settings.index_path
    fresh, old = path.with_name(path.name + ".rebuilding"), path.with_name(path.name + ".old")
    target = TantivyIndex(fresh, recreate=True)
    indexed = fill_index(store_of(settings), target, settings.index.commit_every)
    size = target.count()
    del target
    if path.exists():
        shutil.rmtree(old, ignore_errors=True)
        path.rename(old)
    fresh.rename(path)
    shutil.rmtree(old, ignore_errors=True)
    return {"indexed": indexed, "index_size": size}


INDEX = Stage(name="index", summary="Index the sentences the index does not hold yet.",
              scope=IndexScope, work=index)
