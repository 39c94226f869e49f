"""parawire: paraphrase corpora mined from the news (the spine: config, records, store, CLI)."""

__version__ = "0.1.0"
