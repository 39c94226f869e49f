"""Fine-tuning MiniLM as a cross-encoder, shared by the cross-encoder probes. It needs torch
and transformers only (nothing of parawire), so that it can run where a GPU is."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

MAX_TOKENS = 128


def fine_tune(start: Path, examples: list[tuple[str, str, float]], num_labels: int,
              epochs: int, device: str, seed: int) -> tuple[Any, Any]:
    """A head of `num_labels` logits on the encoder in `start`, fine-tuned on (first, second,
    label) examples: one logit learns a probability (binary cross-entropy), several a class
    (the label is its index). AdamW at 3e-5, batches of 16, a 10% warm-up then a linear
    decay. Returns the tokenizer and the model, in evaluation mode."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(seed)
    tokenizer = AutoTokenizer.from_pretrained(start)
    model = AutoModelForSequenceClassification.from_pretrained(
        start, num_labels=num_labels, ignore_mismatched_sizes=True,
        torch_dtype=torch.float32).to(device)
    examples = list(examples)
    batch = 16
    steps = epochs * ((len(examples) + batch - 1) // batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / (0.1 * steps)) * max(0.0, 1 - step / steps))
    binary = torch.nn.BCEWithLogitsLoss()
    model.train()
    for epoch in range(epochs):
        random.Random(seed * 100 + epoch).shuffle(examples)
        for first in range(0, len(examples), batch):
            chunk = examples[first:first + batch]
            encoded = tokenizer([a for a, _, _ in chunk], [b for _, b, _ in chunk],
                                truncation=True, max_length=MAX_TOKENS, padding=True,
                                return_tensors="pt").to(device)
            logits = model(**encoded).logits
            if num_labels == 1:
                loss = binary(logits.squeeze(-1),
                              torch.tensor([y for _, _, y in chunk], device=device))
            else:
                loss = torch.nn.functional.cross_entropy(
                    logits, torch.tensor([int(y) for _, _, y in chunk], device=device))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
    return tokenizer, model.eval()
