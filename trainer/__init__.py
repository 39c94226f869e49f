"""Training paraphrase generators on exported corpora."""

from parawire.trainer.corpus import SPECIALS, TokenPair, Vocabulary, read_pairs, tokenize

__all__ = ["SPECIALS", "TokenPair", "Vocabulary", "read_pairs", "tokenize"]
