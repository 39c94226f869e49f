"""The aligner: HCSSS mining of (input, target) paraphrase pairs, and their export."""

from aligner.constraints import Constraints, is_paraphrase, is_reference, required_cn_matches
from aligner.dataset import DatasetOptions, build_dataset
from aligner.export import FORMATS, export_run
from aligner.oracle import brute_force_candidates
from aligner.pairs import order_pair
from aligner.params import AlignParams
from aligner.query import build_query
from aligner.run import align_batch, finish_run, select_references, start_run
from aligner.scoring import above_beta, normalized

__all__ = [
    "FORMATS",
    "AlignParams",
    "Constraints",
    "DatasetOptions",
    "above_beta",
    "align_batch",
    "brute_force_candidates",
    "build_dataset",
    "build_query",
    "export_run",
    "finish_run",
    "is_paraphrase",
    "is_reference",
    "normalized",
    "order_pair",
    "required_cn_matches",
    "select_references",
    "start_run",
]
