"""SAO's critic on verl: a value-head model whose attention is frozen (docs/algorithms.md sec. 8; imports verl).

The rule of the torch backend's `ValueModel`: only MLP/MoE projections and the value head train,
the head starts at zero. Freezing happens where verl builds the module, *before* FSDP wraps it,
in an engine registered under its own model type (`settings.CRITIC_MODEL_TYPE`), so verl's own
engine stays untouched; frozen parameters get no gradient, so AdamW skips them. The worker classes
live here so unpickling them in a Ray worker imports this module and its registrations.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import torch
from torch import nn
from verl.single_controller.base.decorator import Dispatch, register
from verl.workers.engine import EngineRegistry
from verl.workers.engine.fsdp.transformer_impl import FSDPEngineWithValueHead
from verl.workers.engine_workers import ActorRolloutRefWorker, TrainingWorker

# imported for their registrations in this (Ray worker) process: swerl's estimators/losses, `rollout.name: swerl`
import swerl.train.backends.verl.loss_fns
import swerl.train.backends.verl.replica  # noqa: F401
from swerl.log import get_logger
from swerl.train.backends.critic import is_trainable
from swerl.train.backends.verl.settings import CRITIC_MODEL_TYPE

log = get_logger(__name__)

VALUE_HEADS = ("score.", "v_head.", "value_head.")
"""Name prefixes of the value head (transformers token classification, trl, custom)."""


def is_critic_trainable(name: str) -> bool:
    """MLP / MoE parameters and the value head train; everything else is frozen (`ValueModel`'s rule)."""
    return is_trainable(name) or name.startswith(VALUE_HEADS)


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


@contextlib.contextmanager
def _configured_attention(hf_config: Any) -> Iterator[None]:
    """verl 0.9's `load_valuehead_model` asks transformers for flash-attention whatever the model config
    says; while swerl's critic is built, load the value-head model with the configured attention
    (`override_config.attn_implementation`, e.g. sdpa on CPU) instead. No-op for flash-attention."""
    import verl.utils.model as vmodel

    attn = getattr(hf_config, "_attn_implementation", None)
    if attn in (None, "flash_attention_2"):
        yield
        return
    original = vmodel.load_valuehead_model

    def load(local_path: str, torch_dtype: Any, model_config: Any, trust_remote_code: bool) -> nn.Module:
        from transformers import AutoModelForTokenClassification

        return AutoModelForTokenClassification.from_pretrained(
            pretrained_model_name_or_path=local_path, torch_dtype=torch_dtype, config=model_config,
            attn_implementation=attn, trust_remote_code=trust_remote_code)

    vmodel.load_valuehead_model = load
    try:
        yield
    finally:
        vmodel.load_valuehead_model = original


@EngineRegistry.register(model_type=CRITIC_MODEL_TYPE, backend=["fsdp", "fsdp2"], device=["cuda", "cpu"])
class FrozenAttentionValueEngine(FSDPEngineWithValueHead):
    """verl's value-head FSDP engine with SAO's frozen attention applied to the module before wrapping."""

    def _build_module(self) -> nn.Module:
        self.model_config.model_type = "value_model"  # verl's loader branch for value heads
        with _configured_attention(self.model_config.hf_config):
            module = super()._build_module()
        frozen = freeze_attention(module)
        total = sum(1 for _ in module.parameters())
        log.info("critic_frozen_attention", frozen=len(frozen), trainable=total - len(frozen))
        return module


def _cpu_process_group() -> None:
    """On swerl's CPU platform, create the gloo process group before verl builds one it cannot (cpu_platform)."""
    import os

    from swerl.train.backends.verl.cpu_platform import PLATFORM, init_gloo_process_group

    if os.environ.get("VERL_PLATFORM") == PLATFORM:
        init_gloo_process_group()


def _local(t: torch.Tensor) -> torch.Tensor:
    return t.to_local() if hasattr(t, "to_local") else t  # FSDP2: this rank's shard of a DTensor


def all_gradients_zero(module: nn.Module) -> bool:
    """True when every gradient element on every rank is exactly 0 (so the gradient norm is 0): one MAX
    all-reduce of a 1-element flag. A NaN counts as non-zero, so verl's own non-finite skip still sees it."""
    import torch.distributed as dist
    from verl.utils.device import get_device_name

    grads = [_local(p.grad) for p in module.parameters() if p.grad is not None]
    nonzero = any(bool(torch.count_nonzero(g)) for g in grads)
    device = grads[0].device if grads else torch.device(get_device_name())
    flag = torch.tensor([1.0 if nonzero else 0.0], device=device)
    if dist.is_initialized():
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    return float(flag.item()) == 0.0


def skip_zero_gradient_steps(engine: Any, counts: dict[str, int]) -> None:
    """Make `engine` take no optimizer (and no lr-scheduler) step when the gradient is exactly zero, as
    `TorchBackend` does: verl's `FSDPEngine.optimizer_step` (workers/engine/fsdp/transformer_impl.py) skips
    only a non-finite norm, so an all-zero-advantage batch would still move every weight by ~lr along Adam's
    momentum. Wraps this engine instance's methods; verl's classes are untouched. `counts` gets
    taken / skipped."""
    step, scheduler_step = engine.optimizer_step, engine.lr_scheduler_step
    last = {"skipped": False}

    def optimizer_step() -> float:
        last["skipped"] = all_gradients_zero(engine.module)
        if last["skipped"]:
            engine.optimizer.zero_grad()
            counts["skipped"] += 1
            return 0.0  # the gradient norm, exactly
        counts["taken"] += 1
        return step()

    def lr_scheduler_step() -> float:
        if last["skipped"]:  # the schedule follows the steps actually taken
            return float(engine.lr_scheduler.get_last_lr()[0])
        return scheduler_step()

    engine.optimizer_step, engine.lr_scheduler_step = optimizer_step, lr_scheduler_step


def _parallel_info(engine: Any) -> dict[str, int]:
    import torch.distributed as dist

    return {"dp_size": int(engine.get_data_parallel_size()), "dp_rank": int(engine.get_data_parallel_rank()),
            "world_size": dist.get_world_size() if dist.is_initialized() else 1}


class CriticWorker(TrainingWorker):
    """verl's `TrainingWorker`, importable from swerl so Ray workers register swerl's engine and losses."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _cpu_process_group()
        super().__init__(*args, **kwargs)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def parallel_info(self) -> dict[str, int]:
        """This rank's data-parallel size and rank, from the engine's public API (one dict per rank)."""
        return _parallel_info(self.engine)


class ActorWorker(ActorRolloutRefWorker):
    """verl's hybrid actor/rollout worker, importable from swerl for the same reason as `CriticWorker`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _cpu_process_group()
        super().__init__(*args, **kwargs)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def parallel_info(self) -> dict[str, int]:
        """This rank's data-parallel size and rank of the policy's engine (call after `init_model`)."""
        return _parallel_info(self.actor.engine)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def skip_zero_gradient_steps(self) -> None:
        """No optimizer step on an exactly zero gradient (`skip_zero_gradient_steps`); call after `init_model`."""
        if getattr(self, "_swerl_step_counts", None) is None:
            self._swerl_step_counts = {"taken": 0, "skipped": 0}
            skip_zero_gradient_steps(self.actor.engine, self._swerl_step_counts)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def optimizer_step_counts(self) -> dict[str, int]:
        """Optimizer steps this rank took and skipped (zero gradient) since `skip_zero_gradient_steps`."""
        return dict(getattr(self, "_swerl_step_counts", None) or {"taken": 0, "skipped": 0})

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def capture_gradients(self, enable: bool = True) -> None:
        """Keep a full copy of every parameter's gradient as the optimizer is about to step (after
        clipping), for parity checks against `TorchBackend` (docs/verl.md). Off unless asked: it
        gathers the whole model on every rank at every step."""
        hook = getattr(self, "_swerl_grad_hook", None)
        if hook is not None:
            hook.remove()
        self._swerl_grad_hook = None
        self._swerl_grads: dict[str, torch.Tensor] = {}
        if not enable:
            return
        engine = self.actor.engine
        names = {id(p): n for n, p in engine.module.named_parameters()}

        def keep(optimizer: Any, _args: Any, _kwargs: Any) -> None:
            grads = {}
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        g = p.grad.full_tensor() if hasattr(p.grad, "full_tensor") else p.grad  # FSDP2 DTensor
                        grads[names.get(id(p), str(id(p)))] = g.detach().float().cpu()
            self._swerl_grads = grads

        self._swerl_grad_hook = engine.optimizer.register_step_pre_hook(keep)

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def full_state_dict(self) -> dict[str, torch.Tensor]:
        """The policy's unsharded state dict (Hugging Face names, tied weights included) on rank 0's CPU;
        other ranks take part in the gathers and return {}."""
        import torch.distributed as dist
        from torch.distributed.checkpoint.state_dict import StateDictOptions, get_model_state_dict

        state = get_model_state_dict(self.actor.engine.module,
                                     options=StateDictOptions(full_state_dict=True, cpu_offload=True))
        rank = dist.get_rank() if dist.is_initialized() else 0
        return {k: v.detach().clone() for k, v in state.items()} if rank == 0 else {}

    @register(dispatch_mode=Dispatch.ONE_TO_ALL)
    def captured_gradients(self) -> dict[str, torch.Tensor]:
        """The gradients kept at the last optimizer step (rank 0 answers; other ranks return {})."""
        import torch.distributed as dist

        rank = dist.get_rank() if dist.is_initialized() else 0
        return dict(getattr(self, "_swerl_grads", {})) if rank == 0 else {}


__all__ = ["ActorWorker", "CriticWorker", "FrozenAttentionValueEngine", "all_gradients_zero", "freeze_attention",
           "is_critic_trainable", "skip_zero_gradient_steps"]
