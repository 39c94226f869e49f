"""Annotation: the Annotator protocol, its spaCy and Stanza backends, the annotate stage,
pipelines trained from Universal Dependencies treebanks, and the Embedder of each language."""

from parawire.nlp.annotate import annotate_pending, annotator_for
from parawire.nlp.describe import pipeline_description
from parawire.nlp.embedders import EMBEDDERS, SentenceTransformerEmbedder, embedder_for
from parawire.nlp.embedding import Embedder, TokenVectors
from parawire.nlp.pmi import PmiCollocations
from parawire.nlp.protocol import Annotator
from parawire.nlp.spacy_annotator import SpacyAnnotator
from parawire.nlp.stage import ANNOTATE, AnnotateScope
from parawire.nlp.stanza_annotator import StanzaAnnotator
from parawire.nlp.training import PipelineScores, TrainedPipeline, evaluate_pipeline, train_pipeline

__all__ = [
           "ANNOTATE",
           "EMBEDDERS",
           "AnnotateScope",
           "Annotator",
           "Embedder",
           "PipelineScores",
           "PmiCollocations",
           "SentenceTransformerEmbedder",
           "SpacyAnnotator",
           "StanzaAnnotator",
           "TokenVectors",
           "TrainedPipeline",
           "annotate_pending",
           "annotator_for",
           "embedder_for",
           "evaluate_pipeline",
           "pipeline_description",
           "train_pipeline",
]
