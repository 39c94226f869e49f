"""parawire: paraphrase corpora mined from the news.

This package is the ground every room stands on (config, records, errors, text
normalisation, the stage contract, the store); `parawire.roof` wires the rooms into stages,
and the rooms are installed beside them as `parawire.crawler`, `parawire.nlp`, …"""

__version__ = "0.1.0"
