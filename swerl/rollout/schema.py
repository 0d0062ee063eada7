"""Pydantic models of the rollout room, one vocabulary for eval, the trainer and the controller."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from swerl.config import RolloutConfig
from swerl.events import State
from swerl.sandbox.schema import DroppedFile, GradeResult

ErrorKind = Literal["agent", "infra"]
if TYPE_CHECKING:
    from swerl.config import Recipe

HARNESS_TOOLCALL = "mini-swe-agent"
HARNESS_TEXT = "mini-swe-agent-textbased"
HARNESS_TERMINUS = "terminus-2"  # harbor's Terminus-2 (swerl.rollout.terminus)
HARNESS_AUTO = "auto"  # `swerl eval`: tool calls for an endpoint or vLLM, text-based for the embedded engine


# An agent YAML's own keys for two `rollout:` settings (`--agent-config` may name them, docs/eval.md)
AGENT_YAML_FIELDS = {"harness": "harness", "step_limit": "max_steps"}


def split_agent_config(data: dict[str, Any], rollout: RolloutConfig) -> tuple[RolloutConfig, dict[str, Any]]:
    """An agent YAML read as two parts: `rollout` with the `harness:` / `step_limit:` the YAML names (validated as
    the recipe's fields), and the rest, the harness's own config. The harness reads those two settings from the
    typed section only, so a YAML key is translated here once instead of riding along in the dict."""
    agent = dict(data)
    named = {field: value for key, field in AGENT_YAML_FIELDS.items()
             if (value := agent.pop(key, None)) not in (None, "")}
    if not named:
        return rollout, agent
    return RolloutConfig.model_validate({**rollout.model_dump(), **named}), agent


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelEndpoint(_Model):
    """An OpenAI-compatible endpoint for the harness: the gateway's per-rollout proxy, or any engine directly.
    `api_key` is a `SecretStr` so that logging or dumping the endpoint never shows it. Each call samples with
    `rollout.temperature` and `rollout.max_tokens`: the recipe's section itself, so its defaults are declared once."""

    base_url: str = Field(description="OpenAI base URL: `gateway.proxy_base_url(id)` or e.g. http://127.0.0.1:8000/v1.")
    api_key: SecretStr = Field(SecretStr("none"), description="Bearer token (the rollout's token via the gateway).")
    model: str = Field("swerl", description="Model name sent upstream (litellm gets `openai/<model>`).")
    rollout: RolloutConfig = Field(default_factory=RolloutConfig)
    timeout_s: float = Field(600.0, gt=0, description="HTTP timeout of one call; a call held by a paused gateway "
                                                      "waits inside it.")
    extra: dict[str, Any] = Field(default_factory=dict, description="More litellm model_kwargs (top_p, seed, ...).")


class AgentResult(_Model):
    """What one mini-swe-agent run in one hardened sandbox produced, classified (`swerl.rollout.classify`):
    `error_kind` None = submitted, "agent" = trained as reward 0, "infra" = retried, never trained on."""

    instance_id: str
    exit_status: str = Field(description="mini-swe-agent's exit status (Submitted, LimitsExceeded, TimeExceeded, "
                                         "RepeatedFormatError) or the exception class name.")
    submitted: bool = False
    patch: str = Field("", description="The host-side patch (kept hunks only) if the agent submitted.")
    files: list[str] = Field(default_factory=list)
    dropped: list[DroppedFile] = Field(default_factory=list, description="Hunks removed from the patch (tests, "
                                                                        "conftest.py, ...).")
    n_calls: int = 0
    error_kind: ErrorKind | None = None
    context_overflow: bool = Field(False, description="The run ended because a call outgrew the model's context.")
    error: str | None = None
    trajectory_path: Path | None = None
    duration_s: float = 0.0


class RolloutOutcome(_Model):
    """The end of one rollout attempt as the runner recorded it: the gateway state written (`succeeded`,
    `failed_agent`, `failed_infra`), or `stale` / `skipped` when another attempt owns the rollout."""

    rollout_id: str
    attempt: int
    state: State | Literal["stale", "skipped"]  # a gateway state, or: not ours to record
    instance_id: str | None = None
    reward: float | None = None
    resolved: bool | None = None
    error_kind: ErrorKind | None = None
    error: str | None = None
    agent: AgentResult | None = None
    grade: GradeResult | None = None
    duration_s: float = 0.0


class RolloutRequest(_Model):
    """One declared rollout: the trainer asks for `n` of these per task, sharing a group id."""

    rollout_id: str
    group_id: str
    instance_id: str
    max_attempts: int = Field(3, ge=1)
    metadata: dict[str, Any] = Field(default_factory=dict)


class ProbeRecord(_Model):
    """One line of `--probe-results` (read by `swerl data filter`, see swerl/data/difficulty.py)."""

    instance_id: str
    attempt: int = Field(ge=0)
    resolved: bool


class RolloutSettings(_Model):
    """How the runner drives one rollout: the recipe's `rollout:` section as it is (no copy of its fields) plus
    what the process running it decides: the served model's name, the client timeout, retry pacing, where
    trajectories go, and `rollout.agent_config` read into a mapping: mini-swe-agent's (or Terminus-2's) own config
    only. The harness reads harness, step limit, `keep_rejected_replies` and `context_overflow` from
    `endpoint.rollout` (this `rollout`), so each keeps the one default `RolloutConfig` declares."""

    rollout: RolloutConfig = Field(default_factory=RolloutConfig)
    model: str = Field("swerl", description="Model name sent upstream (the gateway may override it per engine).")
    call_timeout_s: float = Field(600.0, gt=0)
    model_kwargs: dict[str, Any] = Field(default_factory=dict, description="More litellm model_kwargs (top_p, "
                                                                           "seed, ...).")
    agent_config: dict[str, Any] = Field(default_factory=dict, description="mini-swe-agent config overrides "
                                                                           "({agent, model, environment}), or "
                                                                           "Terminus-2's ({terminus, instruction}).")
    retry_delay_s: float = Field(1.0, ge=0)
    trajectories_dir: Path | None = None

    @classmethod
    def from_recipe(cls, recipe: Recipe, **overrides: Any) -> RolloutSettings:
        """The recipe's section wins over a `harness:`/`step_limit:` its agent YAML names (those are dropped)."""
        _, agent = split_agent_config(recipe.rollout.agent_config_data(), recipe.rollout)
        return cls(**{"rollout": recipe.rollout, "model": recipe.model.path, "agent_config": agent, **overrides})

    def with_rollout(self, **fields: Any) -> RolloutSettings:
        """A copy with some `rollout:` fields changed (validated: a per-rollout temperature, eval's limits)."""
        return self.model_copy(update={"rollout": RolloutConfig.model_validate({**self.rollout.model_dump(), **fields})})

    def endpoint(self, base_url: str, api_key: str) -> ModelEndpoint:
        return ModelEndpoint(base_url=base_url, api_key=SecretStr(api_key), model=self.model,
                             rollout=self.rollout, timeout_s=self.call_timeout_s, extra=dict(self.model_kwargs))
