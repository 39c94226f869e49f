"""Pipelines trained here from Universal Dependencies treebanks with spaCy's own training."""

from parawire.nlp.training.corpus import conllu_docbin
from parawire.nlp.training.evaluate import PipelineScores, evaluate_pipeline
from parawire.nlp.training.train import TrainedPipeline, train_pipeline

__all__ = ["PipelineScores", "TrainedPipeline", "conllu_docbin", "evaluate_pipeline",
           "train_pipeline"]
