"""The Elasticsearch index of each new language analyses its text with that language's
stop words (and, for Italian, elided articles split off)."""

from __future__ import annotations

import uuid

import pytest

from parawire.indexer import ElasticsearchIndex
from tests.factories import make_sentence

# text, then the words its language's analyzer keeps
SENTENCES = {
    "it": ("Il governatore della Banca dell'Italia parla", ["governatore", "banca", "italia",
                                                             "parla"]),
    "es": ("El presidente del Banco de España habla", ["presidente", "banco", "españa",
                                                         "habla"]),
    "nl": ("De president van de Nederlandsche Bank spreekt", ["president", "nederlandsche",
                                                               "bank", "spreekt"]),
}


@pytest.fixture(scope="module")
def es_index(opensearch_api_url):
    index = ElasticsearchIndex(opensearch_api_url, prefix=f"t{uuid.uuid4().hex[:12]}",
                               compatible_media_types=False)
    index.add([make_sentence(k + 1, k + 1, ["x"], ["y"], text=text, language=language)
               for k, (language, (text, _)) in enumerate(sorted(SENTENCES.items()))])
    index.commit()
    yield index
    index.clear()


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_each_language_index_drops_its_stop_words(es_index, language):
    text, kept = SENTENCES[language]
    analysed = es_index.client.indices.analyze(index=es_index.alias(language),
                                               analyzer="parawire_text", text=text)
    assert [token["token"] for token in analysed["tokens"]] == kept
    assert es_index.count() == len(SENTENCES)
