"""Recipe -> verl trainer-config overrides (pure: no verl import), plus the names swerl registers in verl.

`verl_overrides(recipe)` is the complete, ordered list of dotted overrides of verl's Hydra
`ppo_trainer.yaml`, so `--dry-run` prints it without verl and `verl_config.build_verl_config`
composes exactly this list; the user's `verl.overrides` come last and win. Fixed values:
`ppo_epochs=1`, `shuffle=false` (one `update()` is one optimizer step over whole rollouts);
`use_dynamic_bsz` (micro-batches cut by tokens, so row counts need not divide a size);
`loss_agg_mode` (verl validates its own modes; swerl's, rollout-mean included, rides on the
batch); `checkpoint_engine.backend=naive` (collocated sync); `logprobs_mode=raw_logprobs` (the
gateway records raw log-probs, before temperature); `served_model_name` (one fixed name);
chunked, checkpointed entropy (a full tokens x vocabulary softmax at 32k x 248k is 30 GiB).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from swerl.errors import ConfigError

if TYPE_CHECKING:
    from swerl.config import Recipe

ADV_ESTIMATORS = {"grpo": "swerl_grpo", "rloo": "swerl_rloo"}
"""swerl's algorithm name -> the advantage estimator registered by `algos`."""
POLICY_LOSSES = {"ppo": "swerl_ppo", "dis": "swerl_dis"}
"""swerl's policy loss -> the policy loss registered by `algos` (clip bounds / DIS eps in clip_ratio_*)."""
VERL_AGG = {"token-mean": "token-mean", "seq-mean-token-mean": "seq-mean-token-mean", "rollout-mean": "token-mean"}
"""What verl's validator is told; the swerl mode itself rides on the batch."""
CRITIC_MODEL_TYPE = "swerl_value_model"
"""The engine model type of SAO's frozen-attention critic (`critic.FrozenAttentionValueEngine`)."""


def served_model_name(recipe: Recipe) -> str:
    """The name vLLM serves the policy under: `inference.model` (what the gateway and the loop's engine
    check send), default "policy". Fixed, because verl would otherwise serve it under a local path."""
    inference = getattr(recipe, "inference", None)
    return getattr(inference, "model", None) or "policy"


SGLANG_TOOL_PARSERS = {"hermes": "qwen25", "qwen3_coder": "qwen3_coder", "qwen3_xml": "qwen3_coder"}
"""vLLM's tool-call parser name -> SGLang's parser for the same format (Qwen's JSON format is `qwen25` there)."""


def engine_kwargs(recipe: Recipe) -> list[tuple[str, object]]:
    """`rollout.engine_kwargs.<engine>`: what verl forwards verbatim into the engine's launch arguments
    (vLLM: `vllm serve` flags via `build_cli_args_from_config`; SGLang: `ServerArgs` fields).

    Why each: a fixed served name (the gateway asks for it); tool calling on, with the parser for the
    model's tool-call format (the harness sends `tools=[bash]`; without both flags vLLM answers 400);
    every multimodal limit at 0, so vLLM does not load a multimodal model's vision tower (Qwen3.5)."""
    v = recipe.verl
    key = f"++actor_rollout_ref.rollout.engine_kwargs.{v.rollout_engine}"
    kv: list[tuple[str, object]] = [(f"{key}.served_model_name", served_model_name(recipe))]
    if v.rollout_engine == "vllm":
        # verl starts vLLM with stats off; the loop reads busy time and tokens from its /metrics (vllm_metrics)
        kv.append(("actor_rollout_ref.rollout.disable_log_stats", False))
        if v.tool_call_parser:
            kv += [(f"{key}.enable_auto_tool_choice", True), (f"{key}.tool_call_parser", v.tool_call_parser)]
        if v.limit_mm_per_prompt:
            kv.append((f"{key}.limit_mm_per_prompt", dict(v.limit_mm_per_prompt)))
    elif v.rollout_engine == "sglang" and v.tool_call_parser:  # untested: SGLang does not run on this CPU machine
        kv.append((f"{key}.tool_call_parser", SGLANG_TOOL_PARSERS.get(v.tool_call_parser, v.tool_call_parser)))
    return kv


CPU_VLLM_WORKER_EXTENSION = "swerl.train.backends.verl.vllm_cpu.CPUReloadWorkerExtension"
"""verl's vLLM worker extension with CPU-safe weight loading (`vllm_cpu`; named here so this module stays pure)."""
CPU_VLLM_BUCKET_MB = 64
"""Shared-memory bucket of verl's CPU weight transfer (its default 2 GiB is a GPU-sized staging buffer)."""


def cpu_vllm_overrides(recipe: Recipe) -> list[tuple[str, object]]:
    """What CPU vLLM cannot do, as verl settings (docs/verl.md, "verl's vLLM replica on CPU"); applied only with
    `train.device: cpu` and `verl.rollout_engine: vllm`, so `--dry-run` shows them beside the rest.

    - no sleep: vLLM's `Platform.is_sleep_mode_available()` is false on CPU, so the replicas stay resident during
      updates (`free_cache_engine` and `enable_sleep_mode` off; verl's `ServerAdapter.resume/release` are then no-ops);
    - no CUDA graphs or compilation: `enforce_eager` and `cudagraph_mode: NONE` (verl defaults to FULL_AND_PIECEWISE);
    - fp32 serving, as the CPU actor trains in fp32 (`cpu_platform.cpu_overrides`), so the log-prob canary compares
      like with like;
    - weight transfer: verl's own `BucketedWeightSender` takes its shared-memory path (the CPU platform reports no
      IPC), with a bucket sized for a CPU host instead of 2 GiB;
    - weight loading: CPU vLLM repacks linear weights and drops their Parameters, so the received tensors go in
      through vLLM's layerwise reload (`vllm_cpu.CPUReloadWorkerExtension`, a subclass of verl's
      `vLLMColocateWorkerExtension`, passed as vLLM's `worker_extension_cls`)."""
    rollout, vllm_kw = "actor_rollout_ref.rollout", "++actor_rollout_ref.rollout.engine_kwargs.vllm"
    return [(f"{rollout}.free_cache_engine", False), (f"++{rollout}.enable_sleep_mode", False),
            (f"{rollout}.enforce_eager", True), (f"{vllm_kw}.compilation_config", {"cudagraph_mode": "NONE"}),
            (f"{rollout}.dtype", "float32"),
            (f"{rollout}.checkpoint_engine.update_weights_bucket_megabytes", CPU_VLLM_BUCKET_MB),
            (f"{rollout}.max_num_seqs", max(recipe.rollout.concurrency, 1)),
            (f"{vllm_kw}.worker_extension_cls", CPU_VLLM_WORKER_EXTENSION)]


def _fmt(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_fmt(x)}" for k, x in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ",".join(_fmt(v) for v in value) + "]"
    return str(value)


# verl's config sections that the overrides below address
_ARR, _ACTOR, _ROLLOUT = "actor_rollout_ref", "actor_rollout_ref.actor", "actor_rollout_ref.rollout"


def _actor_overrides(recipe: Recipe, path: str) -> list[tuple[str, object]]:
    """The policy model and its optimizer step: one step over whole rollouts, swerl's registered policy loss."""
    v, t, a = recipe.verl, recipe.train, recipe.algorithm
    low, high = (a.dis_eps_low, a.dis_eps_high) if a.policy_loss == "dis" else (a.clip_low, a.clip_high)
    return [
        (f"{_ARR}.model.path", path),
        (f"{_ARR}.model.use_remove_padding", True),
        (f"{_ARR}.model.enable_gradient_checkpointing", v.gradient_checkpointing),
        (f"{_ACTOR}.strategy", v.strategy),
        (f"{_ACTOR}.fsdp_config.strategy", v.strategy),
        (f"{_ACTOR}.fsdp_config.param_offload", v.param_offload),
        (f"{_ACTOR}.fsdp_config.optimizer_offload", v.optimizer_offload),
        (f"{_ACTOR}.fsdp_config.ulysses_sequence_parallel_size", v.ulysses_sp),
        (f"{_ACTOR}.optim.lr", t.lr),
        (f"{_ACTOR}.optim.weight_decay", t.weight_decay),
        (f"{_ACTOR}.optim.clip_grad", t.grad_clip),
        (f"{_ACTOR}.ppo_mini_batch_size", t.rollouts_per_step),
        (f"{_ACTOR}.ppo_epochs", 1),
        (f"{_ACTOR}.shuffle", False),
        (f"{_ACTOR}.use_dynamic_bsz", True),
        (f"{_ACTOR}.ppo_max_token_len_per_gpu", v.max_token_len_per_gpu),
        (f"{_ACTOR}.policy_loss.loss_mode", POLICY_LOSSES[a.policy_loss]),
        (f"{_ACTOR}.clip_ratio_low", low),
        (f"{_ACTOR}.clip_ratio_high", high),
        (f"{_ACTOR}.clip_ratio_c", a.clip_ratio_c if a.clip_ratio_c is not None else float("inf")),  # inf: dual-clip off
        # entropy is a metric here (coefficient 0): chunked and recomputed in backward, so no full
        # tokens x vocabulary softmax is kept for the update (the plan counts one chunk)
        (f"{_ACTOR}.entropy_from_logits_with_chunking", True),
        (f"{_ACTOR}.entropy_checkpointing", True),
        (f"{_ACTOR}.loss_agg_mode", VERL_AGG[a.loss_agg]),
        (f"{_ACTOR}.entropy_coeff", 0),
        (f"{_ACTOR}.use_kl_loss", False),
    ]


def _rollout_overrides(recipe: Recipe) -> list[tuple[str, object]]:
    """verl's rollout replicas: async, sized by the recipe's context split, logging raw log-probs."""
    m, v, r = recipe.model, recipe.verl, recipe.rollout
    return [
        (f"{_ROLLOUT}.name", v.rollout_engine),
        (f"{_ROLLOUT}.mode", "async"),
        (f"{_ROLLOUT}.tensor_model_parallel_size", v.rollout_tp),
        (f"{_ROLLOUT}.gpu_memory_utilization", v.rollout_gpu_memory_utilization),
        (f"{_ROLLOUT}.temperature", r.temperature),
        (f"{_ROLLOUT}.n", r.n_per_task),
        (f"{_ROLLOUT}.max_model_len", m.max_context),
        (f"{_ROLLOUT}.prompt_length", m.max_context - r.max_tokens),
        (f"{_ROLLOUT}.response_length", r.max_tokens),
        (f"{_ROLLOUT}.free_cache_engine", True),
        (f"{_ROLLOUT}.calculate_log_probs", True),
        (f"{_ROLLOUT}.logprobs_mode", "raw_logprobs"),
        (f"{_ROLLOUT}.log_prob_use_dynamic_bsz", True),
        (f"{_ROLLOUT}.log_prob_max_token_len_per_gpu", v.max_token_len_per_gpu),
        (f"{_ROLLOUT}.checkpoint_engine.backend", "naive"),
    ]


def _algorithm_overrides(recipe: Recipe, sao: bool) -> list[tuple[str, object]]:
    """The advantage estimator (swerl's registered ones; SAO's critic) and the trainer's placement and naming."""
    v, a = recipe.verl, recipe.algorithm
    return [
        ("algorithm.adv_estimator", "gae" if sao else ADV_ESTIMATORS[a.name]),  # SAO: swerl runs its own linked GAE
        ("algorithm.gamma", a.gamma),
        ("algorithm.lam", a.lam),
        ("algorithm.norm_adv_by_std_in_grpo", a.std_normalize),
        ("algorithm.use_kl_in_reward", False),
        ("critic.enable", sao),
        ("trainer.nnodes", v.nnodes),
        ("trainer.n_gpus_per_node", v.gpus_per_node),
        ("trainer.device", "cuda"),
        ("trainer.project_name", "swerl"),
        ("trainer.experiment_name", recipe.name),
        ("trainer.logger", ["console"]),
        ("trainer.critic_warmup", a.critic_warmup_steps if sao else 0),
    ]


def _lora_overrides(recipe: Recipe) -> list[tuple[str, object]]:
    """model.lora -> verl's own LoRA settings (docs/algorithms.md sec. 12); verl has no dropout knob."""
    lora = recipe.model.lora
    if lora.dropout:
        raise ConfigError(f"model.lora.dropout={lora.dropout}: the verl backend has no LoRA dropout (use 0)")
    return [(f"{_ARR}.model.lora_rank", lora.rank), (f"{_ARR}.model.lora_alpha", lora.alpha),
            (f"{_ARR}.model.target_modules", list(lora.target_modules))]


def _critic_overrides(recipe: Recipe, path: str) -> list[tuple[str, object]]:
    """SAO's critic: the policy's model and sharding, its own learning rate and number of updates per step."""
    v, t, a = recipe.verl, recipe.train, recipe.algorithm
    return [
        ("critic.strategy", v.strategy),
        ("critic.fsdp.strategy", v.strategy),
        ("critic.model.path", path),
        ("critic.model.enable_gradient_checkpointing", v.gradient_checkpointing),
        ("critic.model.use_remove_padding", True),
        ("critic.fsdp.param_offload", v.param_offload),
        ("critic.fsdp.optimizer_offload", v.optimizer_offload),
        ("critic.fsdp.ulysses_sequence_parallel_size", v.ulysses_sp),
        ("critic.fsdp.use_orig_params", True),
        ("critic.optim.lr", a.value_lr),
        ("critic.optim.weight_decay", t.weight_decay),
        ("critic.optim.clip_grad", t.grad_clip),
        ("critic.ppo_epochs", a.critic_updates),
        ("critic.shuffle", False),
        ("critic.use_dynamic_bsz", True),
        ("critic.ppo_max_token_len_per_gpu", v.max_token_len_per_gpu),
        ("critic.loss_agg_mode", VERL_AGG[a.loss_agg]),
    ]


def verl_overrides(recipe: Recipe, *, model_path: str | None = None, checkpoint_dir: str | None = None) -> list[str]:
    """Hydra overrides (`key=value`) of verl's `ppo_trainer` config for `recipe`, in application order.

    `model_path` replaces `recipe.model.path` (e.g. a local copy of the hub model);
    `checkpoint_dir` is where verl writes sharded checkpoints.
    """
    m, v, t, a, r = recipe.model, recipe.verl, recipe.train, recipe.algorithm, recipe.rollout
    if r.max_tokens >= m.max_context:
        raise ConfigError(f"rollout.max_tokens={r.max_tokens} must be below model.max_context={m.max_context}")
    sao = a.name == "sao"
    if a.name not in ADV_ESTIMATORS and not sao:
        raise ConfigError(f"algorithm.name {a.name!r}: the verl backend supports grpo, rloo and sao")
    path = model_path or m.path
    kv: list[tuple[str, object]] = [*_actor_overrides(recipe, path), *_rollout_overrides(recipe),
                                    *engine_kwargs(recipe), *_algorithm_overrides(recipe, sao)]
    if v.rollout_engine == "vllm" and t.device == "cpu":
        kv += cpu_vllm_overrides(recipe)
    if v.rollout_engine == "swerl":  # swerl's embedded engine as verl's replica (`replica.py`): seed, CPU threads
        kv += [(f"++{_ROLLOUT}.engine_kwargs.swerl.seed", t.seed), (f"++{_ROLLOUT}.engine_kwargs.swerl.threads", t.threads)]
    if checkpoint_dir:
        kv.append(("trainer.default_local_dir", checkpoint_dir))
    if m.lora.rank:
        kv += _lora_overrides(recipe)
    if sao:
        kv += _critic_overrides(recipe, path)
    return [f"{k}={_fmt(val)}" for k, val in kv] + list(v.overrides)


__all__ = ["ADV_ESTIMATORS", "CPU_VLLM_BUCKET_MB", "CPU_VLLM_WORKER_EXTENSION", "CRITIC_MODEL_TYPE", "POLICY_LOSSES", "SGLANG_TOOL_PARSERS",
           "VERL_AGG", "cpu_vllm_overrides", "engine_kwargs", "served_model_name", "verl_overrides"]
