"""Recipe schema (pydantic) and loading: `recipes/*.yaml` plus dotted `--set a.b=value` overrides.
Every section forbids unknown keys: a typo is an error naming the key, never an ignored setting."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from swerl.errors import ConfigError
from swerl.sandbox.schema import SandboxSettings

RECIPES_DIR = Path(__file__).resolve().parent.parent / "recipes"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class LoraSettings(_Section):
    """LoRA adapters (docs/algorithms.md sec. 12): rank 0 = off (full fine-tuning)."""

    rank: int = Field(0, ge=0, description="r of eq. 23; 0 = full fine-tuning.")
    alpha: float = Field(16.0, gt=0, description="The adapter's scale is alpha / rank (eq. 23).")
    dropout: float = Field(0.0, ge=0, lt=1)
    target_modules: list[str] = Field(
        default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
        min_length=1, description="Names of the linear layers that get adapters.")


class ModelConfig(_Section):
    """The policy: a hub/local path, or `tiny` (random-init Qwen-architecture model built from a config)."""

    path: str = "tiny"
    tokenizer: Literal["qwen2.5", "tiny-bpe"] | str = "tiny-bpe"
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    max_context: int = Field(4096, gt=0)
    hidden_size: int = Field(64, gt=0)
    num_layers: int = Field(2, gt=0)
    num_heads: int = Field(4, gt=0)
    vocab_size: int = Field(8192, gt=0)
    lora: LoraSettings = Field(default_factory=LoraSettings)


class DataConfig(_Section):
    """Where tasks come from: `taskpack` (bundled), an HF hub name, or a local path written by `swerl data filter`."""

    dataset: str = "taskpack"
    split: str = "train"
    val_split: str | None = None
    limit: int | None = Field(None, gt=0)
    val_limit: int | None = Field(None, gt=0)
    canary_fraction: float = Field(0.0, ge=0, lt=1, description="Share of training groups (and of validation "
                                   "tasks, at least one when above 0) replaced by canary variants: impossible "
                                   "tasks only a hack passes, never rewarded; reported as "
                                   "hacking/canary_pass_rate (docs/sandbox.md, Canary tasks).")


class GatewaySettings(_Section):
    """The gateway's settings: the recipe's `gateway:` section, `swerl gateway serve`'s flags and the in-process
    gateway all fill this one model. `url` unset: `swerl train` starts the gateway in-process on `store`
    (relative: in the run dir), SQLite synchronous mode `sync` (full survives power loss, normal process
    crashes). `url` set: connect to a running `swerl gateway serve` with the admin token read from
    `admin_token_file`. The admin token and the engines are the process's, not settings (`Gateway(...)`)."""

    store: str = "gateway.sqlite"
    host: str = "127.0.0.1"
    port: int = Field(0, ge=0, le=65535)
    continuous_tokens: bool = False
    url: str | None = None
    admin_token_file: str | None = None
    sync: Literal["full", "normal"] = "full"
    max_body_bytes: int = Field(32 << 20, gt=0, description="A larger request body is refused (413).")
    retry_attempts: int = Field(4, ge=0, description="Retries of an engine call that failed before any byte came.")
    retry_backoff_s: float = Field(0.05, ge=0)
    connect_timeout_s: float = Field(5.0, gt=0)
    read_timeout_s: float = Field(600.0, gt=0, description="An engine's answer; in-process: inference."
                                                             "request_timeout_s.")
    max_hold_s: float = Field(1800.0, gt=0, description="Longest a call is held by a pause (weight sync).")
    rollout_cache: int = Field(20000, gt=0, description="Rollouts kept in memory (finished ones are evicted).")
    max_wait_s: float = Field(60.0, gt=0, description="Longest `GET /rollouts?wait_s=` long-poll.")

    @property
    def client_timeout_s(self) -> float:
        """The HTTP timeout a harness needs: a call is held at most `max_hold_s` and an engine answers
        within `read_timeout_s`; a client giving up earlier leaves an abandoned call and a resend."""
        return self.max_hold_s + self.read_timeout_s + 60.0


class InferenceConfig(_Section):
    """`embedded`: the trainer's own model served in-process, its weights loaded after every update;
    `openai`: an external OpenAI-compatible engine at `url` (vLLM) whose backend syncs weights (verl).
    The engine must answer a one-token request within `startup_timeout_s` before any work starts;
    `request_timeout_s` bounds each proxied call (a timeout is an infrastructure failure)."""

    engine: Literal["embedded", "openai"] = "embedded"
    url: str | None = None
    model: str | None = None
    startup_timeout_s: float = Field(60.0, gt=0)
    request_timeout_s: float = Field(600.0, gt=0)


class RolloutConfig(_Section):
    harness: str = "mini-swe-agent"
    n_per_task: int = Field(4, gt=0)
    max_steps: int = Field(30, gt=0)
    temperature: float = Field(1.0, ge=0)
    max_tokens: int = Field(512, gt=0)
    concurrency: int = Field(4, gt=0)
    max_infra_retries: int = Field(2, ge=0)
    keep_rejected_replies: bool = Field(False, description="mini-swe-agent: keep a reply rejected as a format "
                                                           "error in the history, so the next call extends the "
                                                           "previous one (one sample instead of a branch).")
    context_overflow: Literal["fail", "mask", "truncate"] = Field(
        "fail", description="A call whose conversation outgrew model.max_context (docs/algorithms.md sec. 13): fail = "
        "agent failure, reward 0 (trained); mask = reward 0 kept in the group baseline, out of the loss; truncate = "
        "the work tree at the last complete turn is graded as if submitted.")
    val_temperature: float = Field(0.0, ge=0)
    controller: Literal["local", "external"] = "local"
    agent_config: str | None = Field(None, description="mini-swe-agent YAML ({agent, model, environment}) merged "
                                                       "over the harness config, e.g. shorter templates; a path "
                                                       "relative to the working directory or to recipes/.")

    def agent_config_data(self) -> dict[str, Any]:
        """The `agent_config` file's mapping ({} when unset); errors name `rollout.agent_config`."""
        if not self.agent_config:
            return {}
        path = Path(self.agent_config).expanduser()
        if not path.is_file() and (RECIPES_DIR / self.agent_config).is_file():
            path = RECIPES_DIR / self.agent_config
        if not path.is_file():
            raise ConfigError(f"rollout.agent_config {self.agent_config!r}: no such file (relative to the working "
                              f"directory or {RECIPES_DIR})")
        return load_yaml_mapping(path, f"rollout.agent_config {str(path)!r}", "agent:, model:, environment:")


class AlgorithmConfig(_Section):
    """docs/algorithms.md sections 3, 4, 8, 11 (dynamic sampling), 13 (overlong)."""

    name: Literal["grpo", "rloo", "sao"] = "grpo"
    advantage_level: Literal["rollout", "sample"] = "rollout"
    std_normalize: bool = False
    negative_advantage_scale: float = Field(
        1.0, ge=0, le=1, description="Multiplies advantages below zero (docs/algorithms.md sec. 3, asymmetric "
        "advantage): 1 = plain GRPO/RLOO (AL1); below 1, failed rollouts push their tokens down less than "
        "successes pull theirs up.")
    loss_agg: Literal["token-mean", "seq-mean-token-mean", "rollout-mean"] = "rollout-mean"
    merge: Literal["best_effort", "per_call"] = "best_effort"
    policy_loss: Literal["ppo", "dis"] = "ppo"
    clip_low: float = Field(0.2, ge=0)
    clip_high: float = Field(0.28, ge=0)
    clip_ratio_c: float | None = Field(3.0, gt=1, description="Dual-clip PPO: for A < 0 the loss is capped at "
                                                              "-A * c (verl's clip_ratio_c, default 3.0); null = off.")
    dis_eps_low: float = Field(0.8, ge=0, le=1)
    dis_eps_high: float = Field(3.0, ge=0)
    gamma: float = Field(1.0, ge=0, le=1)
    lam: float = Field(1.0, ge=0, le=1)
    critic_updates: int = Field(2, ge=1)
    critic_warmup_steps: int = Field(10, ge=0, description="SAO: updates (not optimizer steps) at the start in "
                                                           "which only the critic trains.")
    value_lr: float = Field(5e-6, gt=0)
    staleness_limit: int = Field(4, ge=0)
    rollout_correction: Literal["none", "tis", "mis"] = Field(
        "none", description="Off-policy correction against the logged behaviour log-probs (docs/algorithms.md "
        "sec. 4, rollout correction): tis truncates the importance weight at the threshold, mis masks tokens "
        "outside [1/threshold, threshold]; mismatch/* metrics are reported either way.")
    rollout_correction_threshold: float = Field(2.0, gt=1, description="C of docs/algorithms.md sec. 4 eqs. 18-19.")
    dynamic_sampling: bool = Field(
        False, description="Drop groups whose rollouts all got the same reward (zero advantage, docs/algorithms.md "
        "sec. 11, eq. 22) and refill the update from new groups; dynamic/* metrics count what was dropped.")
    dynamic_sampling_max_extra: int | None = Field(
        None, ge=0, description="At most this many rollouts beyond train.rollouts_per_step are taken for one update "
        "while refilling; then the update trains on what it has (dynamic/underfilled). null = rollouts_per_step.")
    overlong: Literal["none", "mask", "penalty"] = Field(
        "none", description="Rollouts past the trajectory budget (docs/algorithms.md sec. 13): penalty = DAPO's soft "
        "overlong penalty (eq. 24) added to the reward; mask = kept in the group baseline, out of the loss; none = "
        "only counted (length/*).")
    overlong_max_tokens: int | None = Field(
        None, gt=0, description="L_max of eq. 24: response tokens per trajectory; null = rollout.max_tokens * "
        "rollout.max_steps.")
    overlong_buffer: int | None = Field(
        None, gt=0, description="L_buf of eq. 24 (the soft zone below L_max); null = L_max / 4.")
    recompute_old_logprobs: bool = Field(
        False, description="The trainer recomputes pi_old once per update, before its first optimizer step; the clip "
        "(or DIS band) is then against pi_old and the correction against the behaviour log-probs (decoupled).")


class TrainConfig(_Section):
    backend: Literal["torch", "verl"] = "torch"
    mode: Literal["collocated", "sync"] = "collocated"
    device: str = "cpu"
    lr: float = Field(1e-6, gt=0)
    weight_decay: float = Field(0.0, ge=0)
    grad_clip: float = Field(1.0, gt=0)
    rollouts_per_step: int = Field(8, gt=0)
    mini_batches: int = Field(1, gt=0)
    ppo_epochs: int = Field(1, gt=0, description="Passes over each batch (verl's ppo_epochs): every pass is "
                            "train.mini_batches optimizer steps; later passes are off-policy, which the "
                            "clipped ratio against the logged rollout log-probs bounds.")
    micro_batch_tokens: int = Field(4096, gt=0)
    steps: int = Field(10, gt=0)
    checkpoint_every: int = Field(10, gt=0)
    val_every: int = Field(0, ge=0)
    seed: int = 0
    threads: int = Field(0, ge=0)
    tensorboard: bool = True
    # Metric views beside metrics.jsonl: tensorboard (off if `tensorboard: false`) and wandb (extra `swerl[wandb]`;
    # offline without WANDB_API_KEY or with WANDB_MODE=offline).
    loggers: list[Literal["tensorboard", "wandb"]] = Field(default_factory=lambda: ["tensorboard"])
    max_infra_failures: int = Field(50, gt=0)
    stall_timeout_s: float = Field(1800.0, gt=0)

    @field_validator("loggers")
    @classmethod
    def _loggers_available(cls, v: list[str]) -> list[str]:
        """wandb asked for but not installed: say so when the recipe loads, not after the run has started."""
        import importlib.util

        if "wandb" in v and importlib.util.find_spec("wandb") is None:
            raise ValueError("wandb is not installed: pip install 'swerl[wandb]' (or drop wandb from the list)")
        return list(dict.fromkeys(v))


class ToyConfig(_Section):
    """The toy harness (`rollout.harness: toy`): learning shown on CPU without a sandbox.

    Turn 1: the agent must say `tool_word`; the tool answer holds the task's secret (one of `secrets`
    digits). Turn 2: it must answer the secret (reward 1). Each turn samples one token among the tool
    word and the digits (`allowed_token_ids`). `delay_s`/`delay_sigma`: a log-normal time per rollout
    (median, sigma), the environment's share of a real rollout, for long-tailed rollout times.
    """

    secrets: int = Field(4, ge=2, le=10)
    tool_word: str = "cat"
    train_tasks: int = Field(256, gt=0)
    val_tasks: int = Field(32, gt=0)
    delay_s: float = Field(0.0, ge=0)
    delay_sigma: float = Field(0.0, ge=0)


class VerlConfig(_Section):
    """Settings read only by `train.backend: verl` (docs/verl.md).

    `overrides`: verl trainer-config overrides in Hydra's dotted form, applied last (the escape hatch
    for knobs swerl does not model). `params_b` (billions) feeds the resource plan; unset, it is
    estimated from `model.hidden_size/num_layers/vocab_size`.
    """

    params_b: float | None = Field(None, gt=0)
    nnodes: int = Field(1, gt=0)
    gpus_per_node: int = Field(8, gt=0)
    gpu_memory_gb: float = Field(80.0, gt=0)
    strategy: Literal["fsdp", "fsdp2"] = "fsdp2"
    rollout_engine: Literal["vllm", "sglang", "swerl"] = "vllm"  # swerl: the embedded engine as verl's replica
    # vLLM's tool-call parser for the model's tool-call format (`hermes`: `<tool_call>{json}</tool_call>`, Qwen2.5/
    # Qwen3; `qwen3_coder`: `<tool_call><function=..><parameter=..>`, Qwen3-Coder/Qwen3.5). null: no tool calling
    # (a tools request then gets a 400). SGLang's names differ; settings.SGLANG_TOOL_PARSERS maps them.
    tool_call_parser: str | None = "hermes"
    # vLLM's `limit_mm_per_prompt`: 0 per modality skips loading a multimodal model's vision tower (text-only RL)
    limit_mm_per_prompt: dict[str, int] = Field(default_factory=lambda: {"image": 0, "video": 0})
    rollout_tp: int = Field(1, gt=0)
    rollout_gpu_memory_utilization: float = Field(0.6, gt=0, le=1)
    ulysses_sp: int = Field(1, gt=0)
    max_token_len_per_gpu: int = Field(32768, gt=0)
    param_offload: bool = False
    optimizer_offload: bool = False
    gradient_checkpointing: bool = True
    max_ckpt_to_keep: int | None = Field(2, gt=0, description="verl checkpoints (global_step_N) kept on disk; "
                                                              "older ones are deleted after a save. null = all")
    overrides: list[str] = Field(default_factory=list)


class Recipe(_Section):
    """One training/eval setup. `recipes/tiny.yaml` is the embedded default."""

    name: str
    description: str = ""
    model: ModelConfig = Field(default_factory=ModelConfig)
    data: DataConfig = Field(default_factory=DataConfig)
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)  # the sandbox room's own model
    gateway: GatewaySettings = Field(default_factory=GatewaySettings)
    rollout: RolloutConfig = Field(default_factory=RolloutConfig)
    algorithm: AlgorithmConfig = Field(default_factory=AlgorithmConfig)
    train: TrainConfig = Field(default_factory=TrainConfig)
    inference: InferenceConfig = Field(default_factory=InferenceConfig)
    toy: ToyConfig = Field(default_factory=ToyConfig)
    verl: VerlConfig = Field(default_factory=VerlConfig)


def load_yaml_mapping(path: Path, label: str, keys: str, _seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A YAML file that must hold a mapping (an agent config, a recipe); errors name `label` (flag or field).

    `base: OTHER` composes instead of copying: OTHER (a path relative to this file, `.yaml` optional) is loaded
    first and this file's keys are merged over it, mappings key by key, so a variant states only what differs.
    """
    if not path.is_file():
        raise ConfigError(f"{label}: no such file")
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{label}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{label}: must be a mapping ({keys})")
    base = data.pop("base", None)
    if base is None:
        return data
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{label}: `base` must be the name or path of another file (got {base!r})")
    found = [c for c in (path.parent / base, path.parent / f"{base}.yaml") if c.is_file()]
    if not found:
        raise ConfigError(f"{label}: base {base!r}: no such file beside {path}")
    if found[0].resolve() in (*_seen, path.resolve()):
        raise ConfigError(f"{label}: base {base!r} includes itself")
    parent = load_yaml_mapping(found[0], f"{label} -> base {str(found[0])!r}", keys, (*_seen, path.resolve()))
    return _merged(parent, data)


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` on top of `base`: nested mappings merged key by key, anything else replaced."""
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def available_recipes() -> list[str]:
    """Names accepted by `--recipe` (files in recipes/)."""
    return sorted(p.stem for p in RECIPES_DIR.glob("*.yaml"))


def _resolve_path(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix in {".yaml", ".yml"} and p.exists():
        return p
    candidate = RECIPES_DIR / f"{name_or_path}.yaml"
    if candidate.exists():
        return candidate
    raise ConfigError(f"unknown recipe {name_or_path!r}; available: {', '.join(available_recipes()) or 'none'}")


def shorthand_overrides(*pairs: tuple[str, Any]) -> list[str]:
    """`--set` items for a command's shorthand flags (`--seed 3` is `train.seed=3`): the recipe keeps the one field,
    and each value is JSON-quoted so `parse_override` reads it back as given (a dataset name stays a string).
    Flags left unset (None) write nothing."""
    return [f"{key}={json.dumps(value)}" for key, value in pairs if value is not None]


def parse_override(item: str) -> tuple[list[str], Any]:
    """`a.b=value` -> (["a", "b"], value); the value is parsed as YAML so `1e-6`, `true`, `[1,2]` work."""
    if "=" not in item:
        raise ConfigError(f"override {item!r} must look like key.path=value")
    key, raw = item.split("=", 1)
    parts = [p for p in key.strip().split(".") if p]
    if not parts:
        raise ConfigError(f"override {item!r} has an empty key")
    try:
        value = yaml.safe_load(raw) if raw.strip() else ""
    except yaml.YAMLError as exc:
        raise ConfigError(f"override {key}: cannot parse value {raw!r}: {exc}") from exc
    return parts, value


def _apply(data: dict[str, Any], parts: list[str], value: Any) -> None:
    node: Any = data
    model: type[BaseModel] | None = Recipe
    for i, part in enumerate(parts):
        dotted = ".".join(parts[: i + 1])
        if model is not None and part not in model.model_fields:
            raise ConfigError(f"unknown recipe key {dotted!r}")
        if i == len(parts) - 1:
            node[part] = value
            return
        field = model.model_fields[part] if model is not None else None
        sub = field.annotation if field is not None else None
        model = sub if isinstance(sub, type) and issubclass(sub, BaseModel) else None
        if model is None:
            raise ConfigError(f"recipe key {dotted!r} is not a section; cannot set {'.'.join(parts)!r}")
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise ConfigError(f"recipe key {dotted!r} is not a mapping")


def _format_validation(exc: ValidationError, source: str) -> str:
    lines = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"])
        if err["type"] == "extra_forbidden":
            lines.append(f"unknown recipe key {loc!r} ({source})")
        else:
            lines.append(f"bad value for {loc!r} ({source}): {err['msg']} (got {err.get('input')!r})")
    return "; ".join(lines)


def load_recipe(name_or_path: str, overrides: list[str] | None = None) -> Recipe:
    """Load a recipe by name or path and apply `--set` overrides; every error names the key."""
    path = _resolve_path(name_or_path)
    data = load_yaml_mapping(path, f"recipe {path}", "model:, rollout:, train:, ...")
    data.setdefault("name", path.stem)
    try:
        Recipe.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_validation(exc, str(path))) from exc
    for item in overrides or []:
        parts, value = parse_override(item)
        _apply(data, parts, value)
    try:
        recipe = Recipe.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_validation(exc, "--set")) from exc
    if not re.fullmatch(r"bwrap|docker|kubernetes|[\w.]+:\w+", recipe.sandbox.backend):
        raise ConfigError(f"bad value for 'sandbox.backend': {recipe.sandbox.backend!r} (bwrap, docker, kubernetes "
                          "or an import path pkg.mod:Class)")
    return recipe
