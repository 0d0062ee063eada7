"""`EvalOptions`: every knob of `swerl eval swebench`, as one validated model (the CLI only fills it in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from swerl.config import DataConfig, GatewaySettings, RolloutConfig
from swerl.rollout.schema import HARNESS_AUTO
from swerl.sandbox.schema import SandboxSettings

VERIFIED = "princeton-nlp/SWE-bench_Verified"


def eval_rollout() -> RolloutConfig:
    """SWE-bench budgets: long episodes, greedy, room for a whole file in one reply; `auto` harness: by engine;
    one attempt per instance (`n_per_task`, pass@k above 1) and one instance at a time (`concurrency`)."""
    return RolloutConfig(harness=HARNESS_AUTO, max_steps=250, temperature=0.0, max_tokens=4096, n_per_task=1,
                         concurrency=1)


def eval_data() -> DataConfig:
    return DataConfig(dataset=VERIFIED, split="test")


def eval_sandbox() -> SandboxSettings:
    return SandboxSettings(backend="docker", rollout_timeout_s=3600.0)


class EvalOptions(BaseModel):
    """A run's own knobs; what it evaluates is the recipe's `data:` model, how each rollout runs its `rollout:`
    model, where it runs its `sandbox:` model and what records its calls its `gateway:` model, composed here as
    they are (the CLI flags fill their fields)."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    out: Path
    model: str | None = Field(None, description="Endpoint URL or checkpoint dir; not needed with grade_only.")
    model_name: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    engine: Literal["auto", "embedded", "vllm"] = "auto"
    instances: str | None = None
    rootfs: str = Field("auto", description="bwrap's system tree when `sandbox.bwrap.rootfs` is unset: auto "
                                            "(the cached debootstrap tree), host or a directory.")
    grader: Literal["auto", "official", "sandbox"] = "auto"
    grade_only: Path | None = None
    run_only: bool = False
    redo: bool = False
    agent_config: dict[str, Any] = Field(default_factory=dict, description="mini-swe-agent config overrides, read "
                                                                           "from `rollout.agent_config`'s file.")
    call_timeout_s: float = Field(600.0, gt=0)
    grade_timeout_s: float = Field(1800.0, gt=0)
    pull: bool = Field(True, description="docker: pull a missing instance image before running it.")
    gateway: GatewaySettings = Field(default_factory=GatewaySettings, description="`url` set: model calls go "
                                     "through that running gateway (its token in `admin_token_file`).")
    data: DataConfig = Field(default_factory=eval_data, description="dataset, split, limit (the rest is training's).")
    rollout: RolloutConfig = Field(default_factory=eval_rollout)
    sandbox: SandboxSettings = Field(default_factory=eval_sandbox)
