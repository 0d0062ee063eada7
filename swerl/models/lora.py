"""LoRA on the torch backend (peft): wrap the policy, merge its adapter for serving and export.

With `model.lora.rank > 0` only the adapter matrices train: W' = W + (alpha / r) B A (docs/algorithms.md
sec. 12, eq. 23), B initialised to 0 so the policy starts exactly as the base model. The engine is served the
*merged* weights after each update (one matmul per adapted matrix, measured in docs/benchmarks.md): it runs a
plain model and needs no adapter support. Checkpoints hold the peft state dict; `swerl train export` merges it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import torch
from torch import nn

from swerl.errors import ConfigError

if TYPE_CHECKING:
    from swerl.config import LoraSettings


def apply_lora(model: nn.Module, lora: LoraSettings) -> nn.Module:
    """The policy with LoRA adapters on `lora.target_modules` (base weights frozen); a clear error without peft."""
    try:
        from peft import LoraConfig, get_peft_model
    except ImportError as exc:  # pragma: no cover - peft is a train dependency
        raise ConfigError(f"model.lora.rank={lora.rank}: the peft package is needed ({exc})") from exc
    names = {n.rsplit(".", 1)[-1] for n, m in model.named_modules() if isinstance(m, nn.Linear)}
    missing = [t for t in lora.target_modules if t not in names]
    if missing:
        raise ConfigError(f"model.lora.target_modules: {missing} are not linear layers of this model "
                          f"(it has {sorted(names)})")
    cfg = LoraConfig(r=lora.rank, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                     target_modules=list(lora.target_modules), bias="none", task_type="CAUSAL_LM")
    return get_peft_model(model, cfg)


def is_lora(model: nn.Module) -> bool:
    return hasattr(model, "peft_config") and hasattr(model, "get_base_model")


def inner_model(model: nn.Module) -> nn.Module:
    """The transformers model inside a peft wrapper (adapters injected in place), or the model itself."""
    return model.get_base_model() if is_lora(model) else model


def merged_weights(model: nn.Module) -> dict[str, torch.Tensor]:
    """Plain-model state dict with W + delta_W for every adapted layer (eq. 23); the policy is not modified.

    Keys are those of the base transformers model (`...q_proj.weight`), so a plain copy can load them.
    """
    from peft.tuners.lora import LoraLayer

    base = model.get_base_model()
    deltas: dict[str, torch.Tensor] = {}
    with torch.no_grad():
        for name, mod in base.named_modules():
            if isinstance(mod, LoraLayer):
                deltas[name] = sum(mod.get_delta_weight(a) for a in mod.active_adapters)  # eq. 23
        out: dict[str, torch.Tensor] = {}
        for key, value in base.state_dict().items():
            if ".lora_" in key:
                continue
            plain = key.replace(".base_layer.", ".")
            owner = plain.rsplit(".", 1)[0]
            if plain.endswith(".weight") and owner in deltas:
                value = value + deltas[owner].to(value.dtype)
            out[plain] = value.detach()
    return out


def plain_copy(model: nn.Module) -> nn.Module:
    """A copy without adapters (the engine's model: it loads `merged_weights` after every update)."""
    if not is_lora(model):
        return copy.deepcopy(model)
    return copy.deepcopy(model).unload()


def merge_into_plain(model: nn.Module) -> nn.Module:
    """The adapter merged into its base model, returned as a plain transformers model (export)."""
    return model.merge_and_unload() if is_lora(model) else model


def lora_state(model: nn.Module) -> dict[str, Any]:
    """Trainable/total parameter counts (logged once: the point of LoRA is the first number)."""
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return {"trainable_params": trainable, "total_params": total}


__all__ = ["apply_lora", "inner_model", "is_lora", "lora_state", "merge_into_plain", "merged_weights", "plain_copy"]
