"""The index stage: sentences the index does not hold yet go in, in committed batches."""

from __future__ import annotations

from tqdm import tqdm

from parawire.indexer.protocol import SentenceIndex
from parawire.store import Store


def fill_index(store: Store, target: SentenceIndex, commit_every: int) -> int:
    """Index the store's sentences above the index's largest id, committing in batches."""
    after = target.max_sentence_id()
    added = pending = 0
    with tqdm(total=store.count_sentences(after), desc="index", unit="sentence",
              disable=None) as bar:
        for batch in store.iter_sentences(after_id=after):
            pending += target.add(batch)
            bar.update(len(batch))
            if pending >= commit_every:
                target.commit()
                added, pending = added + pending, 0
    target.commit()
    return added + pending
