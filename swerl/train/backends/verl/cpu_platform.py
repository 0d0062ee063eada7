"""verl on CPU: a platform plugin so verl's real workers (Ray, FSDP2 over gloo) run without a GPU (imports verl).

Without it every line of `VerlBackend` that touches verl's workers would first execute on a GPU
cluster. verl loads the modules named in `VERL_USE_EXTERNAL_MODULES` in every process, so nothing
in verl is patched: `PlatformSwerlCPU` (device `cpu`, backend `gloo`, Ray resource `GPU`: the
driver starts Ray with logical GPUs, one per rank), verl's FSDP engines registered for `cpu`, and
the gloo process group created before verl builds `"cpu:gloo,cpu:gloo"`, which torch rejects.
`cpu_env()` is the Ray runtime env; `activate()` does the same in the driver's own process.
"""

from __future__ import annotations

import contextlib
import os
import types
from collections.abc import Iterator
from typing import Any

import torch

PLATFORM = "swerl_cpu"
MODULE = __name__


def cpu_env() -> dict[str, str]:
    """Environment for every verl process of a CPU run (driver and Ray workers). The `VLLM_CPU_*` variables matter
    only when verl's vLLM replicas run on CPU vLLM (`verl.rollout_engine: vllm`): a KV cache of 1 GiB per replica
    (CPU vLLM sizes it from this variable, not from `gpu_memory_utilization`) and no OpenMP core pinning (several
    replicas and the trainer ranks share the host's cores); each may be set beforehand to change it."""
    return {"VERL_PLATFORM": PLATFORM, "VERL_USE_EXTERNAL_MODULES": MODULE, "VERL_ENGINE_DEVICE": "cpu",
            "TOKENIZERS_PARALLELISM": "false", "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES": "1",
            "VLLM_TARGET_DEVICE": "cpu", "VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "1"),
            "VLLM_CPU_OMP_THREADS_BIND": os.environ.get("VLLM_CPU_OMP_THREADS_BIND", "nobind")}


def cpu_overrides(with_critic: bool) -> list[str]:
    """verl config overrides of a CPU run: sdpa attention, no fused kernels, device cpu, fp32 FSDP."""
    fp32 = "{param_dtype:fp32,reduce_dtype:fp32,buffer_dtype:fp32}"  # CPUs gain nothing from bf16 compute
    out = ["++actor_rollout_ref.model.override_config.attn_implementation=sdpa",
           "actor_rollout_ref.model.use_fused_kernels=false", "trainer.device=cpu",
           f"++actor_rollout_ref.actor.fsdp_config.mixed_precision={fp32}"]
    if with_critic:
        out += ["++critic.model.override_config.attn_implementation=sdpa", f"++critic.fsdp.mixed_precision={fp32}"]
    return out


def _cpu_device_module() -> types.ModuleType:
    """`torch.cpu` plus the `torch.cuda`-style calls verl makes on its device module."""
    mod = types.ModuleType("swerl_cpu_device")
    for name in dir(torch.cpu):
        if not name.startswith("_"):
            setattr(mod, name, getattr(torch.cpu, name))

    def _zero(*_a: Any, **_k: Any) -> int:
        return 0

    def _none(*_a: Any, **_k: Any) -> None:
        return None

    def mem_get_info(*_a: Any) -> tuple[int, int]:
        import psutil

        vm = psutil.virtual_memory()
        return int(vm.available), int(vm.total)

    mod.is_available = lambda: True  # type: ignore[attr-defined]
    mod.current_device = lambda: "cpu"  # type: ignore[attr-defined]
    mod.device_count = lambda: 1  # type: ignore[attr-defined]
    mod.set_device = _none  # type: ignore[attr-defined]
    mod.synchronize = _none  # type: ignore[attr-defined]
    mod.empty_cache = _none  # type: ignore[attr-defined]
    mod.ipc_collect = _none  # type: ignore[attr-defined]
    mod.set_per_process_memory_fraction = _none  # type: ignore[attr-defined]
    mod.reset_peak_memory_stats = _none  # type: ignore[attr-defined]
    for name in ("memory_allocated", "memory_reserved", "max_memory_allocated", "max_memory_reserved"):
        setattr(mod, name, _zero)
    mod.mem_get_info = mem_get_info  # type: ignore[attr-defined]
    mod.get_rng_state = lambda *_a: torch.get_rng_state()  # type: ignore[attr-defined]
    mod.set_rng_state = lambda state, *_a: torch.set_rng_state(state)  # type: ignore[attr-defined]
    mod.manual_seed = torch.manual_seed  # type: ignore[attr-defined]
    mod.manual_seed_all = torch.manual_seed  # type: ignore[attr-defined]
    mod.get_device_name = lambda *_a: "cpu"  # type: ignore[attr-defined]
    mod.get_device_capability = lambda *_a: (None, None)  # type: ignore[attr-defined]
    mod.is_bf16_supported = lambda *_a, **_k: True  # type: ignore[attr-defined]
    return mod


CPU_DEVICE = _cpu_device_module()


def init_gloo_process_group() -> None:
    """Create the default process group with gloo from verl's rank variables, before verl tries
    `"cpu:gloo,cpu:gloo"` (no-op outside a verl worker or when already initialized)."""
    import torch.distributed as dist

    if dist.is_initialized() or "RANK" not in os.environ or "MASTER_ADDR" not in os.environ:
        return
    dist.init_process_group("gloo", rank=int(os.environ["RANK"]), world_size=int(os.environ.get("WORLD_SIZE", 1)))


class _CPUPlatformAnswers:
    """The methods of verl's platform interface, answered for CPU processes; `_register_platform` mixes them into
    a `PlatformBase` subclass (verl is imported only there, when the platform is first needed)."""

    def is_available(self) -> bool:
        return True

    def is_platform_available(self, use_smi_check: bool = False) -> bool:
        return os.environ.get("VERL_PLATFORM") == PLATFORM  # never auto-detected: chosen explicitly

    def current_device(self) -> Any:
        # verl moves tensors with `.to(get_device_id())`; an int would mean "accelerator N" to torch,
        # so answer like `torch.cpu.current_device()` does
        return "cpu"

    def device_count(self) -> int:
        return 1

    def set_device(self, device_index: int) -> None:
        return None

    def synchronize(self, device_index: int | None = None) -> None:
        return None

    def manual_seed(self, seed: int) -> None:
        torch.manual_seed(seed)

    def manual_seed_all(self, seed: int) -> None:
        torch.manual_seed(seed)

    def set_allocator_settings(self, settings: str) -> None:
        return None

    def empty_cache(self) -> None:
        return None

    def get_device_capability(self, device_index: int = 0) -> tuple[int | None, int | None]:
        return None, None

    def communication_backend_name(self) -> str:
        return "gloo"

    def visible_devices_envvar(self) -> str:
        return "CUDA_VISIBLE_DEVICES"  # Ray assigns the logical GPUs through it; torch (CPU build) ignores it

    @contextlib.contextmanager
    def nvtx_range(self, msg: str) -> Iterator[None]:
        yield

    def profiler_start(self) -> None:
        return None

    def profiler_stop(self) -> None:
        return None

    def ray_resource_name(self) -> str:
        return "GPU"

    def ray_noset_envvars(self) -> list[str]:
        return ["RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES"]

    def is_ipc_supported(self) -> bool:
        return False

    def cudart(self) -> Any:
        return None


def _register_platform() -> None:
    """Register the CPU platform with verl, once per process."""
    from verl.plugin.platform import PlatformBase, PlatformRegistry

    if PlatformRegistry.get(PLATFORM) is not None:
        return

    class PlatformSwerlCPU(_CPUPlatformAnswers, PlatformBase):
        """verl's platform interface answered for CPU processes (see the module doc)."""

        device_name = "cpu"  # type: ignore[assignment]
        vendor_name = "swerl"  # type: ignore[assignment]
        device_module = CPU_DEVICE  # type: ignore[assignment]

    PlatformRegistry.register(platform=PLATFORM)(PlatformSwerlCPU)


def _register_engines() -> None:
    from verl.workers.engine import EngineRegistry
    from verl.workers.engine.fsdp.transformer_impl import FSDPEngineWithLMHead, FSDPEngineWithValueHead

    for model_type, cls in (("language_model", FSDPEngineWithLMHead), ("value_model", FSDPEngineWithValueHead)):
        engines = EngineRegistry._engines.get(model_type, {}).get("fsdp2", {})
        if "cpu" not in engines:
            EngineRegistry.register(model_type=model_type, backend=["fsdp", "fsdp2"], device=["cpu"])(cls)


def activate() -> None:
    """Make this process a CPU verl process: the platform registered, the variables of `cpu_env()` set
    (before verl resolves its platform), verl's FSDP engines registered for `cpu`."""
    from verl.plugin.platform import PlatformRegistry, get_platform, set_platform

    _register_platform()
    os.environ.update(cpu_env())
    if get_platform().device_name != "cpu":  # resolved (to the CUDA fallback) before this call: replace it
        set_platform(PlatformRegistry.get(PLATFORM)())  # type: ignore[misc]
    _register_engines()


if os.environ.get("VERL_PLATFORM") == PLATFORM:  # imported by verl itself (VERL_USE_EXTERNAL_MODULES)
    _register_platform()
    _register_engines()

__all__ = ["CPU_DEVICE", "PLATFORM", "activate", "cpu_env", "cpu_overrides", "init_gloo_process_group"]
