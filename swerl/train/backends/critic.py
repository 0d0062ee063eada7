"""SAO's critic (docs/algorithms.md sec. 8): a value head over a copy of the policy's transformer.

Frozen attention: only the MLP/MoE projections of the copy and the value head
train; attention, embeddings and norms stay as initialised. The value for a
response token t is read from the hidden state at t-1 (the state the action was
taken in), aligned with how log-probs are read.
"""

from __future__ import annotations

import copy

import torch
from torch import nn


def is_trainable(name: str) -> bool:
    """MLP / MoE parameters (`...mlp.gate_proj`, `...mlp.experts...`) train; everything else is frozen."""
    return ".mlp." in f".{name}"


class ValueModel(nn.Module):
    """V(s_t) for every position: `base` (a deep copy of the policy's decoder) + a linear head."""

    def __init__(self, policy: nn.Module) -> None:
        super().__init__()
        base = getattr(policy, "base_model", policy)
        self.base = copy.deepcopy(base)
        hidden = policy.config.hidden_size  # type: ignore[union-attr]
        self.head = nn.Linear(hidden, 1)
        # V starts at 0 everywhere (explained variance 0, not a random negative number); the head's
        # gradient is non-zero from the first update, the MLPs' from the second.
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)
        for name, p in self.base.named_parameters():
            p.requires_grad_(is_trainable(name))

    def forward(self, input_ids: torch.Tensor, position_ids: torch.Tensor) -> torch.Tensor:
        """(B, T) ids -> (B, T) values, value[:, t] from the hidden state at t."""
        hidden = self.base(input_ids=input_ids, position_ids=position_ids, use_cache=False).last_hidden_state
        return self.head(hidden).squeeze(-1).float()

    def trainable_parameters(self) -> list[nn.Parameter]:
        return [p for p in self.parameters() if p.requires_grad]


__all__ = ["ValueModel"]
