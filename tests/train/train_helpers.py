"""Helpers shared by the RL core tests (a uniquely named module; conftest.py is not importable by name)."""

from __future__ import annotations

from typing import Any

import numpy as np


def make_sample(rollout_id: str, sample_index: int, n_tokens: int, response: list[tuple[int, int]], *,
                group_id: str = "g", reward: float | None = 1.0, seed: int = 0, vocab: int = 8000) -> Any:
    """A Sample with random ids and mask-1 spans `response` ([start, end) pairs)."""
    from swerl.train.schema import Sample

    rng = np.random.default_rng(seed)
    mask = np.zeros(n_tokens, dtype=np.int8)
    for s, e in response:
        mask[s:e] = 1
    return Sample(input_ids=rng.integers(0, vocab, n_tokens), loss_mask=mask,
                  rollout_logprobs=np.where(mask > 0, -rng.random(n_tokens), 0.0), rollout_id=rollout_id,
                  group_id=group_id, sample_index=sample_index, reward=reward, policy_versions=[0])
