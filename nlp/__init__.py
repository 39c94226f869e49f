"""Annotation: the Annotator protocol, its spaCy and Stanza backends, and the annotate stage."""

from parawire.nlp.annotate import annotate_pending, annotator_for
from parawire.nlp.pmi import PmiCollocations
from parawire.nlp.protocol import Annotator
from parawire.nlp.spacy_annotator import SpacyAnnotator
from parawire.nlp.stage import ANNOTATE, AnnotateScope
from parawire.nlp.stanza_annotator import StanzaAnnotator

__all__ = ["ANNOTATE", "AnnotateScope", "Annotator", "PmiCollocations", "SpacyAnnotator",
           "StanzaAnnotator", "annotate_pending", "annotator_for"]
