"""SAO's critic on verl: a value-head model whose attention is frozen (ALGORITHMS.md sec. 8; imports verl).

verl builds critics with `FSDPEngineWithValueHead` (a token-classification head, `score`,
with one label over the policy's checkpoint). swerl's rule is the one of the torch
backend's `ValueModel`: only MLP/MoE projections and the value head train, the head
starts at zero (V = 0 everywhere, explained variance 0 at step 0), everything else
(embeddings, softmax or linear attention, norms) is frozen.

The freezing happens where verl builds the module, *before* FSDP wraps it:
`FrozenAttentionValueEngine` is registered in verl's `EngineRegistry` under its own model
type (`settings.CRITIC_MODEL_TYPE`), so verl's engine stays untouched. Frozen
parameters get no gradient, so AdamW never updates them (it skips `grad is None`), and
FSDP2 / FSDP1 with `use_orig_params` accept mixed `requires_grad`. `CriticWorker` is
verl's `TrainingWorker` under swerl's module path: unpickling it in a Ray worker imports
this module, which performs the registration in that process.
"""

from __future__ import annotations

import torch
from torch import nn
from verl.workers.engine import EngineRegistry
from verl.workers.engine.fsdp.transformer_impl import FSDPEngineWithValueHead
from verl.workers.engine_workers import ActorRolloutRefWorker, TrainingWorker

import swerl.train.backends.verl.loss_fns  # noqa: F401  (registers swerl's estimators/losses in this process)
from swerl.log import get_logger
from swerl.train.backends.verl.settings import CRITIC_MODEL_TYPE

log = get_logger(__name__)

VALUE_HEADS = ("score.", "v_head.", "value_head.")
"""Name prefixes of the value head (transformers token classification, trl, custom)."""


def is_critic_trainable(name: str) -> bool:
    """MLP / MoE parameters and the value head train; everything else is frozen (same rule as `ValueModel`)."""
    return ".mlp." in f".{name}" or name.startswith(VALUE_HEADS)


def freeze_attention(module: nn.Module, *, zero_head: bool = True) -> list[str]:
    """Set `requires_grad=False` on every non-MLP, non-head parameter; zero the head. Returns the frozen names."""
    frozen = []
    for name, p in module.named_parameters():
        keep = is_critic_trainable(name)
        p.requires_grad_(keep)
        if not keep:
            frozen.append(name)
        elif zero_head and name.startswith(VALUE_HEADS) and p.device.type != "meta":
            with torch.no_grad():
                p.zero_()
    return frozen


@EngineRegistry.register(model_type=CRITIC_MODEL_TYPE, backend=["fsdp", "fsdp2"], device=["cuda"])
class FrozenAttentionValueEngine(FSDPEngineWithValueHead):
    """verl's value-head FSDP engine with SAO's frozen attention applied to the module before wrapping."""

    def _build_module(self) -> nn.Module:
        self.model_config.model_type = "value_model"  # verl's loader branch for value heads
        module = super()._build_module()
        frozen = freeze_attention(module)
        total = sum(1 for _ in module.parameters())
        log.info("critic_frozen_attention", frozen=len(frozen), trainable=total - len(frozen))
        return module


class CriticWorker(TrainingWorker):
    """verl's `TrainingWorker`, importable from swerl so Ray workers register swerl's engine and losses."""


class ActorWorker(ActorRolloutRefWorker):
    """verl's hybrid actor/rollout worker, importable from swerl for the same reason as `CriticWorker`."""


__all__ = ["ActorWorker", "CriticWorker", "FrozenAttentionValueEngine", "freeze_attention", "is_critic_trainable"]
