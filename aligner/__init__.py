"""The aligner: HCSSS mining of (input, target) paraphrase pairs, and their export."""

from aligner.constraints import Constraints, is_paraphrase, is_reference, required_cn_matches
from aligner.export import export_jsonl, pair_record
from aligner.oracle import brute_force_candidates
from aligner.pairs import order_pair
from aligner.params import AlignParams
from aligner.query import build_query
from aligner.run import align_batch, finish_run, select_references, start_run
from aligner.scoring import above_beta, normalized

__all__ = [
    "AlignParams", "Constraints", "above_beta", "align_batch", "brute_force_candidates",
    "build_query", "export_jsonl", "finish_run", "is_paraphrase", "is_reference",
    "normalized", "order_pair", "pair_record", "required_cn_matches", "select_references",
    "start_run",
]
