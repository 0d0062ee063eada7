"""The resource plan of a recipe: GPUs, memory per GPU, vLLM replicas, sandboxes (no verl, no torch).

`swerl train --dry-run` prints it without starting anything, so a recipe can be checked before a
cluster is booked. Memory figures are *estimates* for spotting a recipe that cannot fit, not a
substitute for `perf/max_memory_allocated_gb` of a real run (docs/verl.md). Per GPU:
    update  actor 4 B/param weights + 4 B grads + 8 B Adam (0 when offloaded), / n_gpus
            critic (SAO) 4 B/param weights + 12 B per *trainable* (MLP) param, / n_gpus
            activations max_token_len_per_gpu x layers x hidden x 2 B + 20 B x tokens x hidden
            logits max_token_len_per_gpu x vocab x (4 B fp32 + 2 B bf16 gradient) + one entropy chunk
    rollout the trainer's resident weights (+ Adam unless offloaded) + vLLM's pool
            (gpu_memory_utilization x GPU memory: bf16 weights / rollout_tp + KV cache)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from swerl.config import Recipe

GIB = float(1 << 30)
ENTROPY_CHUNK = 2048
"""Positions per entropy chunk (verl's `entropy_from_logits_chunk_size`)."""
HEADROOM_GIB = 3.0
"""CUDA context, NCCL buffers and allocator fragmentation, per GPU."""
MLP_FRACTION = 9.0 / 13.0
"""Share of a decoder layer's parameters in its MLP when intermediate = 3 x hidden (9h^2 of ~13h^2)."""


@dataclass(frozen=True)
class MemoryLine:
    """One component of per-GPU memory, in GiB."""

    name: str
    gib: float
    note: str = ""


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
    """Inference replicas verl launches (vLLM's, or swerl's embedded engine with `verl.rollout_engine: swerl`)."""
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
    def fits(self) -> bool:
        peak = max(self.update_gib, self.rollout_gib)
        return not self.issues and (not self.gpu_memory_gib or peak <= self.gpu_memory_gib)


def estimate_params(hidden: int, layers: int, vocab: int) -> float:
    """Parameters of a dense decoder: 12 L h^2 (attention + MLP) + 2 V h (untied embedding and head)."""
    return 12.0 * layers * hidden * hidden + 2.0 * vocab * hidden


def resource_plan(recipe: Recipe, *, peak_tflops: float = 989.0, mfu: float = 0.3) -> ResourcePlan:
    """Plan GPUs, per-GPU memory (update and rollout phases) and sandboxes for `recipe`.

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
        if n % sp:
            issues.append(f"verl.ulysses_sp={sp} does not divide the {n} GPUs")
        if n % tp:
            issues.append(f"verl.rollout_tp={tp} does not divide the {n} GPUs")
        if tokens * sp < m.max_context:
            issues.append(f"model.max_context={m.max_context} exceeds verl.max_token_len_per_gpu x verl.ulysses_sp "
                          f"= {tokens * sp}: a full-length sample would not fit one micro-batch")
        if sao and v.strategy != "fsdp2":
            issues.append("SAO's frozen-attention critic needs verl.strategy: fsdp2 (per-parameter requires_grad)")
        dp, replicas = max(n // sp, 1), max(n // tp, 1)
        offload_opt, offload_param = v.optimizer_offload, v.param_offload
    else:  # the built-in torch backend: one process, one device
        on_gpu = t.device.startswith("cuda")
        nnodes, per_node, gpu_gib = 1, 1 if on_gpu else 0, v.gpu_memory_gb if on_gpu else 0.0
        n, sp, tp, dp, replicas = 1, 1, 1, 1, 0
        tokens = t.micro_batch_tokens
        offload_opt = offload_param = False
    shard = max(n, 1)
    weights = 0.0 if offload_param else 4 * params / shard
    adam = 0.0 if offload_opt else 8 * params / shard
    update = [
        MemoryLine("actor weights (fp32)", weights / GIB, "offloaded to CPU between uses" if offload_param else ""),
        MemoryLine("actor grads (fp32)", 4 * params / shard / GIB),
        MemoryLine("actor Adam states", adam / GIB, "offloaded to CPU" if offload_opt else ""),
    ]
    rollout = [MemoryLine("actor weights (resident)", weights / GIB), MemoryLine("actor Adam (resident)", adam / GIB)]
    if sao:
        trainable = MLP_FRACTION * max(params - 2.0 * m.vocab_size * m.hidden_size, 0.0)
        c_w = 4 * params / shard
        c_g, c_adam = 4 * trainable / shard, 0.0 if offload_opt else 8 * trainable / shard
        update += [MemoryLine("critic weights (fp32)", c_w / GIB),
                   MemoryLine("critic grads + Adam (MLP only)", (c_g + c_adam) / GIB, "attention frozen")]
        rollout += [MemoryLine("critic weights (resident)", c_w / GIB),
                    MemoryLine("critic Adam (resident)", c_adam / GIB)]
    act = tokens * m.num_layers * m.hidden_size * 2 + 20.0 * tokens * m.hidden_size
    update += [MemoryLine("activations", act / GIB, f"{tokens} tokens/micro-batch, checkpointed layers"),
               MemoryLine("logits (fp32)", tokens * m.vocab_size * 4 / GIB, f"{tokens} x {m.vocab_size}"),
               MemoryLine("logits gradient (bf16)", tokens * m.vocab_size * 2 / GIB, "backward of the log-probs")]
    if t.backend == "verl":  # entropy metric: chunked and recomputed in backward (settings.verl_overrides)
        update.append(MemoryLine("entropy chunk (fp32)", ENTROPY_CHUNK * m.vocab_size * 4 * 2 / GIB,
                                 f"{ENTROPY_CHUNK} x {m.vocab_size}, softmax + product"))
    if gpu_gib:
        update.append(MemoryLine("headroom", HEADROOM_GIB, "CUDA context, NCCL, fragmentation"))
    if replicas and v.rollout_engine == "swerl":  # the embedded engine: one full copy of the weights per replica
        rollout.append(MemoryLine("swerl engine weights (fp32)", 4 * params / GIB,
                                  "embedded engine, a full copy per replica; its storage is freed while asleep"))
    elif replicas:
        pool = v.rollout_gpu_memory_utilization * gpu_gib
        w_bf16 = 2 * params / tp / GIB
        rollout.append(MemoryLine("vLLM pool", pool, f"{v.rollout_gpu_memory_utilization:g} x {gpu_gib:g} GiB: "
                                  f"{w_bf16:.1f} GiB bf16 weights + {max(pool - w_bf16, 0):.1f} GiB KV cache"))
        if pool <= w_bf16:
            issues.append(f"verl.rollout_gpu_memory_utilization leaves no KV cache: pool {pool:.1f} GiB <= "
                          f"weights {w_bf16:.1f} GiB per GPU (raise it or rollout_tp)")
    if gpu_gib:
        rollout.append(MemoryLine("headroom", HEADROOM_GIB))
    up, ro = sum(x.gib for x in update), sum(x.gib for x in rollout)
    if gpu_gib:
        for phase, used in (("update", up), ("rollout", ro)):
            if used > gpu_gib:
                issues.append(f"{phase} phase needs ~{used:.1f} GiB per GPU > {gpu_gib:g} GiB")
    per_task = r.n_per_task
    if t.rollouts_per_step % per_task:
        warnings.append(f"train.rollouts_per_step={t.rollouts_per_step} is not a multiple of rollout.n_per_task="
                        f"{per_task}: some groups span two updates")
    if per_task == 1 and not sao and a.name in ("grpo", "rloo"):
        issues.append(f"{a.name} with rollout.n_per_task=1 has no group baseline (every advantage is 0); use SAO")
    if s.backend == "docker" and nnodes > 1:
        warnings.append("sandbox.backend=docker runs every sandbox on the controller's node; use kubernetes "
                        "to spread them over the cluster")
    flops = shard * peak_tflops * 1e12 * mfu if gpu_gib else 0.0
    return ResourcePlan(
        recipe=recipe.name, backend=t.backend, nnodes=nnodes, gpus_per_node=per_node, gpu_memory_gib=gpu_gib,
        params_b=params / 1e9, params_estimated=not v.params_b, data_parallel=dp, ulysses_sp=sp,
        vllm_replicas=replicas, rollout_tp=tp, rollout_engine="swerl" if v.rollout_engine == "swerl" else "vLLM", update_lines=tuple(update), rollout_lines=tuple(rollout),
        sandbox_backend=s.backend, sandboxes=r.concurrency, sandbox_cpus=r.concurrency * s.cpus,
        sandbox_memory_gib=r.concurrency * s.memory_mb / 1024, rollouts_per_step=t.rollouts_per_step,
        tasks_per_step=t.rollouts_per_step / per_task,
        update_tokens_per_s=flops / (8 * params) if params else 0.0,
        assumptions=((f"update throughput at {mfu:.0%} MFU of {peak_tflops:g} TFLOP/s bf16 per GPU, "
                      "8 FLOPs/param/token",) if gpu_gib else ()) +
                    ("memory: AdamW mixed precision under FSDP full sharding; activation and logit sizes are rough",),
        warnings=tuple(warnings), issues=tuple(issues))


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
    for title, lines, total in ((f"update phase, {where}", plan.update_lines, plan.update_gib),
                                (f"rollout phase, {where}", plan.rollout_lines, plan.rollout_gib)):
        out.append(f"  {title}: ~{total:.1f} GiB")
        out += [f"    {x.name:<32}{x.gib:8.2f} GiB  {x.note}".rstrip() for x in lines if x.gib >= 0.005 or x.note]
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
