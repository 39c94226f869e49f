"""The aligner: HCSSS mining of (input, target) paraphrase pairs, and their export."""

from parawire.aligner.constraints import Constraints, is_paraphrase, is_reference, required_cn_matches
from parawire.aligner.dataset import DatasetOptions, build_dataset
from parawire.aligner.export import FORMATS, export_run
from parawire.aligner.oracle import brute_force_candidates
from parawire.aligner.pairs import order_pair
from parawire.aligner.params import AlignParams
from parawire.aligner.query import build_query
from parawire.aligner.run import align_batch, finish_run, select_references, start_run
from parawire.aligner.scoring import above_beta, normalized
from parawire.aligner.semantic import cosine_similarities
from parawire.aligner.stage import ALIGN, EXPORT, AlignScope, ExportScope

__all__ = [
    "ALIGN",
    "EXPORT",
    "FORMATS",
    "AlignParams",
    "AlignScope",
    "Constraints",
    "DatasetOptions",
    "ExportScope",
    "above_beta",
    "align_batch",
    "brute_force_candidates",
    "build_dataset",
    "build_query",
    "cosine_similarities",
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
