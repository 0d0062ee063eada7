"""The resource plan of a recipe, phase by phase as verl 0.9.1 runs it (no verl, no torch imported).

`swerl train --dry-run` prints it without starting anything. Each memory line names the verl code it models
(`MemoryLine.source`, paths inside the verl 0.9.1 wheel); docs/verl.md lists them. The figures are estimates
from the model's dimensions, for choosing `verl.rollout_gpu_memory_utilization` and spotting a recipe that
cannot fit; `perf/max_memory_allocated_gb` of a real run is the measurement (none has been taken here yet).

    rollout  trainer resident (fp32 weight shard unless param-offloaded; no grads, no Adam) + CUDA context,
             and vLLM's pool = gpu_memory_utilization x GPU memory (its weights, KV cache, CUDA graphs)
    update   fp32 weight shard + fp32 grad shard + Adam (reloaded to the GPU for the whole mini-batch, also with
             optimizer_offload) + the unsharded root (embedding, LM head) and its gradient + two gathered layers
             + checkpointed activations + bf16 logits + their gradient (a second buffer when entropy is computed)
             + one entropy chunk + what vLLM keeps while asleep (level 2)
    sync     fp32 weight shard + vLLM's bf16 weights (resumed before the KV cache) + one transfer bucket
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from swerl.config import Recipe

GIB = float(1 << 30)
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "swerl": "swerl"}
"""`verl.rollout_engine` -> the name the plan prints (SGLang's memory is counted as vLLM's: same knobs)."""
ENTROPY_CHUNK = 2048
"""Positions per entropy chunk (verl's `entropy_from_logits_chunk_size`, workers/config/engine.py:193)."""
HEADROOM_GIB = 3.0
"""The trainer process's CUDA context, NCCL buffers and allocator fragmentation, per GPU."""
VLLM_ASLEEP_GIB = 2.0
"""What a vLLM process keeps on its GPU at sleep level 2 (weights and KV cache freed): CUDA context, the
CUDA-graph pool and allocations outside its CuMemAllocator pool. An assumption until a GPU run measures it."""
SYNC_BUCKET_GIB = 2.0
"""verl's `update_weights_bucket_megabytes` default (workers/config/rollout.py:135): 2048 MB per transfer."""

VERL = {
    "weights": "verl/workers/engine/fsdp/transformer_impl.py:260-262 (training loads fp32), "
               "verl/utils/fsdp_utils.py:573-600 (apply_fsdp2 shards every layer and the root)",
    "grads": "verl/workers/engine/fsdp/transformer_impl.py:391-401 (MixedPrecision reduce_dtype fp32)",
    "adam": "verl/workers/engine/base.py:322-328 (train mode loads the optimizer), entered around the whole "
            "mini-batch loop at verl/workers/engine_workers.py:281-282 (TrainingWorker.train_mini_batch)",
    "root": "verl/utils/fsdp_utils.py:600 (fsdp2 does not reshard the root after forward)",
    "layers": "verl/utils/fsdp_utils.py:593-596 (fully_shard per decoder layer; one gathered, one prefetched)",
    "activations": "verl/workers/engine/fsdp/transformer_impl.py:335-336 (gradient checkpointing per layer)",
    "logits": "verl/workers/engine/fsdp/transformer_impl.py:1381 (bf16 logits of the packed tokens, "
              "param_dtype of transformer_impl.py:391-401)",
    "logits_grad": "verl/workers/engine/fsdp/transformer_impl.py:1424-1432 (inplace_backward=False when entropy "
                   "is computed) + verl/utils/torch_functional.py:73-101 (flash-attn cross-entropy)",
    "entropy": "verl/workers/engine/fsdp/transformer_impl.py:1397-1409 (entropy_checkpointing: chunked entropy "
               "recomputed in backward)",
    "vllm_asleep": "verl/workers/rollout/vllm_rollout/vllm_async_server.py:1289-1316 (sleep level 2)",
    "resident": "verl/workers/engine_workers.py:811-812 (the weights leave the GPU only with param_offload), "
                "verl/workers/engine/base.py:334-335 (Adam back to CPU), "
                "verl/workers/engine/fsdp/transformer_impl.py:1135-1139 (grads zeroed on leaving train mode)",
    "vllm_pool": "verl/workers/rollout/vllm_rollout/vllm_async_server.py:340 (gpu_memory_utilization to vLLM)",
    "sync": "verl/workers/engine_workers.py:782-823 (resume weights, per-tensor gather in buckets, then the KV "
            "cache)",
}
"""The verl 0.9.1 code each plan line follows (docs/verl.md "Resource plan")."""


@dataclass(frozen=True)
class MemoryLine:
    """One component of per-GPU memory, in GiB, and the verl code it models."""

    name: str
    gib: float
    note: str = ""
    source: str = ""


@dataclass(frozen=True)
class ResourcePlan:
    """What a recipe needs; `issues` are problems that make the recipe unrunnable as written."""

    recipe: str
    backend: str
    nnodes: int
    gpus_per_node: int
    gpu_memory_gib: float
    params_b: float
    params_estimated: bool
    data_parallel: int
    ulysses_sp: int
    vllm_replicas: int
    """Inference replicas verl launches (vLLM's, SGLang's, or swerl's embedded engine with `verl.rollout_engine: swerl`)."""
    rollout_tp: int
    update_lines: tuple[MemoryLine, ...]
    rollout_lines: tuple[MemoryLine, ...]
    sandbox_backend: str
    sandboxes: int
    sandbox_cpus: float
    sandbox_memory_gib: float
    rollouts_per_step: int
    tasks_per_step: float
    update_tokens_per_s: float
    assumptions: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    issues: tuple[str, ...] = field(default_factory=tuple)
    rollout_engine: str = "vLLM"
    sync_lines: tuple[MemoryLine, ...] = ()
    recommended_utilization: float | None = None
    """The largest `verl.rollout_gpu_memory_utilization` that leaves the trainer's rollout-phase residents room
    (`recommended_utilization`); None without vLLM replicas."""

    @property
    def gpus(self) -> int:
        return self.nnodes * self.gpus_per_node

    @property
    def update_gib(self) -> float:
        return sum(x.gib for x in self.update_lines)

    @property
    def rollout_gib(self) -> float:
        return sum(x.gib for x in self.rollout_lines)

    @property
    def sync_gib(self) -> float:
        return sum(x.gib for x in self.sync_lines)

    @property
    def fits(self) -> bool:
        peak = max(self.update_gib, self.rollout_gib, self.sync_gib)
        return not self.issues and (not self.gpu_memory_gib or peak <= self.gpu_memory_gib)


def estimate_params(hidden: int, layers: int, vocab: int) -> float:
    """Parameters of a dense decoder: 12 L h^2 (attention + MLP) + 2 V h (untied embedding and head)."""
    return 12.0 * layers * hidden * hidden + 2.0 * vocab * hidden


@dataclass(frozen=True)
class _Shape:
    """What the memory lines are computed from (bytes and counts; per GPU where it says so)."""

    params: float
    shard: int
    tokens: int
    layers: int
    hidden: int
    vocab: int
    sao: bool
    offload_param: bool
    offload_opt: bool
    entropy: bool
    logit_bytes: int = 2
    """bf16 under verl's FSDP mixed precision; the torch backend runs the model's own dtype (fp32 on CPU)."""


def _line(name: str, nbytes: float, note: str = "", source: str = "") -> MemoryLine:
    return MemoryLine(name, nbytes / GIB, note, VERL.get(source, ""))


def _trainer_resident(s: _Shape) -> list[MemoryLine]:
    """What the trainer keeps on each GPU while vLLM serves: its fp32 weight shard (unless param-offloaded);
    grads were zeroed and Adam went back to the CPU when train mode ended."""
    lines = [_line("actor weights (fp32 shard)", 0.0 if s.offload_param else 4 * s.params / s.shard,
                   "param_offload: on CPU" if s.offload_param else "", "resident")]
    if s.sao:
        lines.append(_line("critic weights (fp32 shard)", 4 * s.params / s.shard, "", "resident"))
    return lines


def update_lines(s: _Shape, on_gpu: bool) -> list[MemoryLine]:
    """The update phase per GPU, one line per verl allocation (module doc)."""
    root = 2.0 * s.vocab * s.hidden  # embedding + LM head: the root module's parameters
    per_layer = max(s.params - root, 0.0) / max(s.layers, 1)
    lines = [
        _line("actor weights (fp32 shard)", 4 * s.params / s.shard, "", "weights"),
        _line("actor grads (fp32 shard)", 4 * s.params / s.shard, "", "grads"),
        _line("actor Adam (fp32 m, v shard)", 8 * s.params / s.shard,
              "reloaded from CPU for the whole mini-batch" if s.offload_opt else "", "adam"),
    ]
    if s.sao:  # the critic trains in its own call (a value head, no logits): during the actor's only its weights
        lines.append(_line("critic weights (fp32 shard)", 4 * s.params / s.shard, "resident", "resident"))
    if on_gpu:
        lines += [_line("embedding + LM head unsharded (bf16)", 2 * root * 2, "params and their grads", "root"),
                  _line("two gathered layers (bf16)", 2 * per_layer * 2, "", "layers")]
    act = s.tokens * s.layers * s.hidden * 2 + 20.0 * s.tokens * s.hidden
    logits = s.tokens * s.vocab * s.logit_bytes
    dt = "bf16" if s.logit_bytes == 2 else "fp32"
    lines += [_line("activations", act, f"{s.tokens} tokens/micro-batch, checkpointed layers", "activations"),
              _line(f"logits ({dt})", logits, f"{s.tokens} x {s.vocab}", "logits"),
              _line(f"logits gradient ({dt})", logits if s.entropy else 0.0,
                    "a second buffer: entropy is computed" if s.entropy else "in place (no entropy)", "logits_grad")]
    if s.entropy:
        lines.append(_line("entropy chunk (fp32)", ENTROPY_CHUNK * s.vocab * 4 * 2,
                           f"{ENTROPY_CHUNK} x {s.vocab}, softmax + product", "entropy"))
    return lines


def recommended_utilization(gpu_gib: float, resident_gib: float) -> float:
    """The largest `gpu_memory_utilization` (2 decimals, down) whose pool fits beside the trainer's rollout-phase
    residents and the headroom: vLLM takes `u x GPU memory` at start-up, when the trainer already holds them."""
    return math.floor(100 * (gpu_gib - resident_gib - HEADROOM_GIB) / gpu_gib) / 100


def resource_plan(recipe: Recipe, *, peak_tflops: float = 989.0, mfu: float = 0.3) -> ResourcePlan:
    """Plan GPUs, per-GPU memory (rollout, update and sync phases) and sandboxes for `recipe`.

    `peak_tflops` (bf16 dense, per GPU; 989 = H100/H200 SXM) and `mfu` only feed the
    update-throughput estimate, which counts 8 P FLOPs per trained token (forward,
    backward, and the recomputation of gradient checkpointing).
    """
    m, v, t, a, r, s = recipe.model, recipe.verl, recipe.train, recipe.algorithm, recipe.rollout, recipe.sandbox
    params = v.params_b * 1e9 if v.params_b else estimate_params(m.hidden_size, m.num_layers, m.vocab_size)
    issues: list[str] = []
    warnings: list[str] = []
    sao = a.name == "sao"
    if t.backend == "verl":
        nnodes, per_node, gpu_gib = v.nnodes, v.gpus_per_node, v.gpu_memory_gb
        n = nnodes * per_node
        sp, tp, tokens = v.ulysses_sp, v.rollout_tp, v.max_token_len_per_gpu
        issues += _layout_issues(recipe, n)
        dp, replicas = max(n // sp, 1), max(n // tp, 1)
        shape = _Shape(params, max(n, 1), tokens, m.num_layers, m.hidden_size, m.vocab_size, sao, v.param_offload,
                       v.optimizer_offload, entropy=True)
    else:  # the built-in torch backend: one process, one device, plain AdamW, fp32 logits (losses.token_logprobs)
        on_gpu = t.device.startswith("cuda")
        nnodes, per_node, gpu_gib = 1, 1 if on_gpu else 0, v.gpu_memory_gb if on_gpu else 0.0
        n, sp, tp, dp, replicas = 1, 1, 1, 1, 0
        shape = _Shape(params, 1, t.micro_batch_tokens, m.num_layers, m.hidden_size, m.vocab_size, sao, False,
                       False, entropy=True, logit_bytes=2 if m.dtype == "bfloat16" else 4)
    update, rollout, sync, util = _phases(recipe, shape, replicas, tp, gpu_gib, issues, warnings)
    warnings += _batch_warnings(recipe, issues, nnodes)
    flops = max(n, 1) * peak_tflops * 1e12 * mfu if gpu_gib else 0.0
    return ResourcePlan(
        recipe=recipe.name, backend=t.backend, nnodes=nnodes, gpus_per_node=per_node, gpu_memory_gib=gpu_gib,
        params_b=params / 1e9, params_estimated=not v.params_b, data_parallel=dp, ulysses_sp=sp,
        vllm_replicas=replicas, rollout_tp=tp, rollout_engine=ENGINE_NAMES[v.rollout_engine],
        update_lines=tuple(update), rollout_lines=tuple(rollout), sync_lines=tuple(sync),
        recommended_utilization=util, sandbox_backend=s.backend, sandboxes=r.concurrency,
        sandbox_cpus=r.concurrency * s.cpus, sandbox_memory_gib=r.concurrency * s.memory_mb / 1024,
        rollouts_per_step=t.rollouts_per_step, tasks_per_step=t.rollouts_per_step / r.n_per_task,
        update_tokens_per_s=flops / (8 * params) if params else 0.0,
        assumptions=((f"update throughput at {mfu:.0%} MFU of {peak_tflops:g} TFLOP/s bf16 per GPU, "
                      "8 FLOPs/param/token",) if gpu_gib else ()) +
                    ("memory: verl 0.9.1's phases (each line cites the verl code it models); activation sizes are "
                     "rough; not yet checked against perf/max_memory_allocated_gb of a GPU run",) +
                    (("train.device cpu with vLLM replicas: the phases above are a GPU's; CPU vLLM does not sleep "
                      "(resident during updates), takes its KV cache from VLLM_CPU_KVCACHE_SPACE and syncs over a "
                      "shared-memory bucket (settings.cpu_vllm_overrides, docs/verl.md)",)
                     if t.device == "cpu" and v.rollout_engine == "vllm" else ()),
        warnings=tuple(warnings), issues=tuple(issues))


def _phases(recipe: Recipe, shape: _Shape, replicas: int, tp: int, gpu_gib: float, issues: list[str],
            warnings: list[str]) -> tuple[list[MemoryLine], list[MemoryLine], list[MemoryLine], float | None]:
    """The update, rollout and sync lines (module doc) and the recommended vLLM share; a phase over the GPU's
    memory is an issue."""
    v = recipe.verl
    on_gpu = bool(gpu_gib)
    update = update_lines(shape, on_gpu and recipe.train.backend == "verl")
    rollout = _trainer_resident(shape)
    sync: list[MemoryLine] = []
    util = None
    if replicas and v.rollout_engine == "swerl":  # the embedded engine: one full copy of the weights per replica
        rollout.append(MemoryLine("swerl engine weights (fp32)", 4 * shape.params / GIB,
                                  "embedded engine, a full copy per replica; its storage is freed while asleep"))
    elif replicas:
        util, pool, sync = _vllm_phases(v, shape.params, tp, gpu_gib, sum(x.gib for x in rollout), issues, warnings)
        rollout += pool
        sync = [*_trainer_resident(shape), *sync]
        update.append(MemoryLine("vLLM asleep (level 2)", VLLM_ASLEEP_GIB, "CUDA context, CUDA graphs; assumed",
                                 VERL["vllm_asleep"]))
    if on_gpu:
        head = MemoryLine("headroom", HEADROOM_GIB, "CUDA context, NCCL, fragmentation")
        for lines in (update, rollout, sync) if sync else (update, rollout):
            lines.append(head)
        for phase, lines in (("update", update), ("rollout", rollout), ("sync", sync)):
            used = sum(x.gib for x in lines)
            if used > gpu_gib:
                issues.append(f"{phase} phase needs ~{used:.1f} GiB per GPU > {gpu_gib:g} GiB")
    return update, rollout, sync, util


def _layout_issues(recipe: Recipe, n: int) -> list[str]:
    m, v, a = recipe.model, recipe.verl, recipe.algorithm
    out = []
    if n % v.ulysses_sp:
        out.append(f"verl.ulysses_sp={v.ulysses_sp} does not divide the {n} GPUs")
    if n % v.rollout_tp:
        out.append(f"verl.rollout_tp={v.rollout_tp} does not divide the {n} GPUs")
    if v.max_token_len_per_gpu * v.ulysses_sp < m.max_context:
        out.append(f"model.max_context={m.max_context} exceeds verl.max_token_len_per_gpu x verl.ulysses_sp "
                   f"= {v.max_token_len_per_gpu * v.ulysses_sp}: a full-length sample would not fit one micro-batch")
    if a.name == "sao" and v.strategy != "fsdp2":
        out.append("SAO's frozen-attention critic needs verl.strategy: fsdp2 (per-parameter requires_grad)")
    return out


def _vllm_phases(v: object, params: float, tp: int, gpu_gib: float, resident_gib: float, issues: list[str],
                 warnings: list[str]) -> tuple[float, list[MemoryLine], list[MemoryLine]]:
    """vLLM's pool in the rollout phase, the sync phase's vLLM lines, and the utilization the plan recommends."""
    u = float(v.rollout_gpu_memory_utilization)  # type: ignore[attr-defined]
    best = recommended_utilization(gpu_gib, resident_gib)
    pool = u * gpu_gib
    w_bf16 = 2 * params / tp / GIB
    lines = [MemoryLine("vLLM pool", pool, f"{u:g} x {gpu_gib:g} GiB: {w_bf16:.1f} GiB bf16 weights + "
                        f"{max(pool - w_bf16, 0):.1f} GiB KV cache and CUDA graphs", VERL["vllm_pool"])]
    if pool <= w_bf16:
        issues.append(f"verl.rollout_gpu_memory_utilization leaves no KV cache: pool {pool:.1f} GiB <= "
                      f"weights {w_bf16:.1f} GiB per GPU (raise it or rollout_tp)")
    if u > best:
        issues.append(f"verl.rollout_gpu_memory_utilization={u:g} > {best:g}: vLLM's pool would not fit beside "
                      f"the trainer's {resident_gib:.1f} GiB + {HEADROOM_GIB:g} GiB headroom")
    elif (best - u) * gpu_gib > 4.0:
        warnings.append(f"verl.rollout_gpu_memory_utilization={u:g} leaves ~{(best - u) * gpu_gib:.0f} GiB per GPU "
                        f"idle in the rollout phase; the plan recommends {best:g}")
    sync = [MemoryLine("vLLM weights (bf16, resumed)", w_bf16, "before the KV cache", VERL["sync"]),
            MemoryLine("weight transfer bucket", SYNC_BUCKET_GIB, "update_weights_bucket_megabytes", VERL["sync"])]
    return best, lines, sync


def _batch_warnings(recipe: Recipe, issues: list[str], nnodes: int) -> list[str]:
    t, a, r, s = recipe.train, recipe.algorithm, recipe.rollout, recipe.sandbox
    out = []
    if t.rollouts_per_step % r.n_per_task:
        out.append(f"train.rollouts_per_step={t.rollouts_per_step} is not a multiple of rollout.n_per_task="
                   f"{r.n_per_task}: some groups span two updates")
    if r.n_per_task == 1 and a.name in ("grpo", "rloo"):
        issues.append(f"{a.name} with rollout.n_per_task=1 has no group baseline (every advantage is 0); use SAO")
    if s.backend == "docker" and nnodes > 1:
        out.append("sandbox.backend=docker runs every sandbox on the controller's node; use kubernetes "
                   "to spread them over the cluster")
    return out


def render_plan(plan: ResourcePlan) -> str:
    """A plain-text report of `plan` (what `--dry-run` prints after the resolved recipe)."""
    out = [f"resource plan: {plan.recipe} (backend {plan.backend})"]
    if plan.gpu_memory_gib:
        out.append(f"  GPUs            {plan.gpus} = {plan.nnodes} node(s) x {plan.gpus_per_node}, "
                   f"{plan.gpu_memory_gib:g} GiB each")
    else:
        out.append("  GPUs            none (CPU)")
    est = " (estimated from model dims)" if plan.params_estimated else ""
    size = f"{plan.params_b:.2f} B" if plan.params_b >= 0.1 else f"{plan.params_b * 1e3:.2f} M"
    out.append(f"  model           {size} parameters{est}")
    if plan.backend == "verl":
        out.append(f"  training        FSDP over {plan.gpus} GPUs, data-parallel {plan.data_parallel} x "
                   f"Ulysses SP {plan.ulysses_sp}")
        out.append(f"  inference       {plan.vllm_replicas} {plan.rollout_engine} replica(s) x TP {plan.rollout_tp}, "
                   "collocated (asleep during updates), fronted by the gateway")
    where = "per GPU" if plan.gpu_memory_gib else "host RAM"
    phases = [(f"rollout phase, {where}", plan.rollout_lines, plan.rollout_gib),
              (f"update phase, {where}", plan.update_lines, plan.update_gib)]
    if plan.sync_lines:
        phases.append((f"sync phase, {where}", plan.sync_lines, plan.sync_gib))
    for title, lines, total in phases:
        out.append(f"  {title}: ~{total:.1f} GiB")
        out += [f"    {x.name:<38}{x.gib:8.2f} GiB  {x.note}".rstrip() for x in lines if x.gib >= 0.005 or x.note]
    if plan.recommended_utilization is not None:
        out.append(f"  vLLM            recommended verl.rollout_gpu_memory_utilization: {plan.recommended_utilization:g}")
    out.append(f"  sandboxes       {plan.sandboxes} x {plan.sandbox_backend}: {plan.sandbox_cpus:g} CPUs, "
               f"{plan.sandbox_memory_gib:g} GiB in total")
    out.append(f"  per update      {plan.rollouts_per_step} rollouts ({plan.tasks_per_step:g} tasks)")
    if plan.update_tokens_per_s:
        out.append(f"  update speed    ~{plan.update_tokens_per_s:,.0f} trained tokens/s (estimate)")
    out += [f"  assumption: {x}" for x in plan.assumptions]
    out += [f"  warning: {x}" for x in plan.warnings]
    out += [f"  PROBLEM: {x}" for x in plan.issues]
    out.append("  fits: yes" if plan.fits else "  fits: NO")
    return "\n".join(out)


def dry_run_text(recipe: Recipe) -> str:
    """What `swerl train --dry-run` prints: the resource plan first (the answer to "will this fit?"), then the
    resolved recipe (YAML) and, for `train.backend: verl`, the verl trainer-config overrides. Starts nothing."""
    import yaml

    from swerl.train.backends.verl.settings import verl_overrides

    parts = [render_plan(resource_plan(recipe)), "", "# resolved recipe",
             yaml.safe_dump(recipe.model_dump(mode="json"), sort_keys=False).rstrip()]
    if recipe.train.backend == "verl":
        parts += ["", "verl overrides (verl/trainer/config/ppo_trainer.yaml):"]
        parts += [f"  {x}" for x in verl_overrides(recipe)]
    return "\n".join(parts)


__all__ = ["MemoryLine", "ResourcePlan", "dry_run_text", "estimate_params", "render_plan", "resource_plan"]
