"""The annotate stage, in the stage contract's shape."""

from parawire.config import Settings
from parawire.nlp.annotate import annotate_pending
from parawire.stage import Counts, Scope, Stage
from parawire.store import store_of


class AnnotateScope(Scope):
    """The annotate stage takes every article not yet annotated; nothing to choose."""


def annotate(settings: Settings, scope: AnnotateScope) -> Counts:
    """Annotate every article that has no sentences yet."""
    return annotate_pending(settings, store_of(settings))


ANNOTATE = Stage(name="annotate", summary="Split new articles into annotated sentences.",
                 scope=AnnotateScope, work=annotate)
