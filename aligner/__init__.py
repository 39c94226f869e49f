"""The aligner: HCSSS mining of (input, target) paraphrase pairs, and their export."""

from parawire.aligner.batch_features import featurize
from parawire.aligner.constraints import Constraints, is_paraphrase, is_reference, required_cn_matches
from parawire.aligner.dataset import DatasetOptions, build_dataset
from parawire.aligner.export import FORMATS, export_run
from parawire.aligner.grading import Grading
from parawire.aligner.oracle import brute_force_candidates
from parawire.aligner.pair_features import FEATURES, pair_features
from parawire.aligner.pair_model import (
    MODEL_FEATURES,
    FeaturePairModel,
    GradeModel,
    fit_pair_model,
    load_pair_model,
)
from parawire.aligner.pairs import order_pair, orient
from parawire.aligner.params import AlignParams
from parawire.aligner.query import build_query
from parawire.aligner.run import align_batch, finish_run, select_references, start_run
from parawire.aligner.scoring import above_beta, normalized
from parawire.aligner.semantic import cosine_similarities
from parawire.aligner.stage import ALIGN, EXPORT, AlignScope, ExportScope
from parawire.aligner.stories import STORIES, StoriesScope
from parawire.aligner.training import as_one_sentence

__all__ = [
    "ALIGN",
    "EXPORT",
    "FEATURES",
    "FORMATS",
    "MODEL_FEATURES",
    "STORIES",
    "AlignParams",
    "AlignScope",
    "Constraints",
    "DatasetOptions",
    "ExportScope",
    "FeaturePairModel",
    "GradeModel",
    "Grading",
    "StoriesScope",
    "above_beta",
    "align_batch",
    "as_one_sentence",
    "brute_force_candidates",
    "build_dataset",
    "build_query",
    "cosine_similarities",
    "export_run",
    "featurize",
    "finish_run",
    "fit_pair_model",
    "is_paraphrase",
    "is_reference",
    "load_pair_model",
    "normalized",
    "order_pair",
    "orient",
    "pair_features",
    "required_cn_matches",
    "select_references",
    "start_run",
]
