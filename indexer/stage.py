"""The index stage, in the stage contract's shape."""

from parawire.config import Settings
from parawire.indexer.filling import fill_index
from parawire.indexer.opening import open_index
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import store_of


class IndexScope(Scope):
    """Index the sentences the index does not hold yet, or every one after a clear."""

    rebuild: bool = option(False, "Re-create the index from the store.", cli=False)


def index(settings: Settings, scope: IndexScope) -> Counts:
    """Add the sentences the index does not hold yet (all of them, after a clear, on rebuild)."""
    target = open_index(settings, rebuild=scope.rebuild)
    if scope.rebuild:
        target.clear()
    return {"indexed": fill_index(store_of(settings), target, settings.index.commit_every),
            "index_size": target.count()}


INDEX = Stage(name="index", summary="Index the sentences the index does not hold yet.",
              scope=IndexScope, work=index)
