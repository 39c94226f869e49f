"""The annotate stage, in the stage contract's shape."""

from parawire.config import Settings
from parawire.nlp.annotate import annotate_pending
from parawire.stage import Counts, Scope, Stage, option
from parawire.store import store_of


class AnnotateScope(Scope):
    """Every article not yet annotated, or (redo) every article again."""

    redo: bool = option(False, "Annotate every stored article again (sentence ids are kept; "
                               "rebuild the index afterwards).", flag="--redo/--no-redo")


def annotate(settings: Settings, scope: AnnotateScope) -> Counts:
    """Annotate every article that has no sentences yet (every article, with redo)."""
    store = store_of(settings)
    marked = store.mark_for_reannotation() if scope.redo else 0
    counts = annotate_pending(settings, store)
    return {**counts, "reannotated": marked} if scope.redo else counts


ANNOTATE = Stage(name="annotate", summary="Split new articles into annotated sentences.",
                 scope=AnnotateScope, work=annotate)
