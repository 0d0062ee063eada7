"""A `TorchBackend` from keyword fields, for tests that vary one or two settings of an update step."""

from __future__ import annotations

from typing import Any

from torch import nn

from swerl.config import AlgorithmConfig, TrainConfig
from swerl.train.backends.torch import TorchBackend


def torch_backend(model: nn.Module, *, pad_token_id: int = 0, row_tokens: int | None = None,
                  compute_entropy: bool = True, **fields: Any) -> TorchBackend:
    """Fields of the recipe's `algorithm:` and `train:` sections by name. The copies are not validated, so a test
    may step with lr 0 (loss only); dual clip is off unless `clip_ratio_c` is given (the tests' reference PPO)."""
    fields.setdefault("clip_ratio_c", None)
    algo = {k: v for k, v in fields.items() if k in AlgorithmConfig.model_fields}
    train = {k: v for k, v in fields.items() if k in TrainConfig.model_fields}
    unknown = sorted(set(fields) - set(algo) - set(train))
    if unknown:
        raise TypeError(f"not an algorithm: or train: field: {', '.join(unknown)}")
    return TorchBackend(model, AlgorithmConfig().model_copy(update=algo), TrainConfig().model_copy(update=train),
                        row_tokens=row_tokens, pad_token_id=pad_token_id, compute_entropy=compute_entropy)
