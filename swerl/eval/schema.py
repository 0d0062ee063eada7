"""Pydantic models of one evaluation run: the files of the run directory and the reports, defined once."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Outcome = Literal["resolved", "unresolved", "empty_patch", "error", "infra_failure", "pending"]
OUTCOMES: tuple[str, ...] = ("resolved", "unresolved", "empty_patch", "error", "infra_failure")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PredRow(BaseModel):
    """One line of `preds.jsonl`, exactly the official harness's prediction format (extra keys tolerated on read)."""

    model_config = ConfigDict(extra="ignore")

    instance_id: str = Field(min_length=1)
    model_name_or_path: str
    model_patch: str | None = ""


class ModelSpec(_Model):
    """What `--model` resolved to: an endpoint used as is, a checkpoint served by an engine we started, or
    (`--grade-only`) a predictions file."""

    kind: Literal["endpoint", "checkpoint", "predictions"]
    source: str = Field(description="The --model argument as given (never an API key).")
    name: str = Field(description="model_name_or_path written into preds.jsonl.")
    engine: Literal["none", "embedded", "vllm"] = "none"
    gateway: str | None = Field(None, description="Gateway base URL when calls were recorded through one.")


class RunManifest(_Model):
    """`RUN_DIR/run.json`: written once; a resumed run must match it (same model, data, attempts)."""

    run_id: str = Field(description="Unique per run directory; keys every grading cache and harness log dir.")
    created_at: float
    swerl_version: str
    model: ModelSpec
    dataset: str
    split: str
    backend: str
    grader: str
    attempts: int = Field(ge=1)
    instance_ids: list[str]
    repos: dict[str, str] = Field(default_factory=dict, description="instance_id -> repo, for per-repo tables.")
    agent_config: str | None = Field(None, description="--agent-config file, if any (merged over swebench.yaml).")


class AgentRecord(_Model):
    """`agent.jsonl`: one line per finished agent attempt (before its prediction line is written)."""

    run_id: str
    instance_id: str
    attempt: int = Field(ge=0)
    repo: str
    exit_status: str
    error_kind: Literal["agent", "infra"] | None = None
    error: str | None = None
    n_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    patch_sha: str = ""
    patch_bytes: int = 0
    duration_s: float = 0.0
    trajectory: str | None = Field(None, description="Path of the trajectory file, relative to RUN_DIR.")


class GradeRecord(_Model):
    """`grades.jsonl`: one line per graded prediction, keyed by (run_id, attempt, instance_id, patch_sha)."""

    run_id: str
    instance_id: str
    attempt: int = Field(ge=0)
    patch_sha: str
    grader: str = Field(description="official-docker | sandbox-<backend>")
    outcome: Outcome
    resolved: bool = False
    resolution: str = ""
    patch_applied: bool | None = None
    fail_to_pass: dict[str, list[str]] = Field(default_factory=dict)
    pass_to_pass: dict[str, list[str]] = Field(default_factory=dict)
    error: str | None = None
    duration_s: float = 0.0
    log: str | None = Field(None, description="Harness log dir or file, relative to RUN_DIR.")


class InstanceAttempt(_Model):
    """The joined view of one attempt used by reports (agent record + grade)."""

    instance_id: str
    attempt: int
    repo: str
    outcome: Outcome
    exit_status: str = ""
    n_calls: int = 0
    tokens: int = 0
    cost: float = 0.0
    error: str | None = None


class RepoRow(_Model):
    repo: str
    instances: int
    resolved: int
    resolved_pct: float


class EvalReport(_Model):
    """`report.json`. Counts are over attempt 0 (the standard single-shot number); pass@k over all attempts."""

    run_id: str
    model: str
    dataset: str
    split: str
    total: int
    counts: dict[str, int]
    resolved_pct: float = Field(description="resolved / total (the field's convention: every selected instance counts).")
    resolved_ids: list[str]
    per_repo: list[RepoRow]
    mean_steps: float
    mean_tokens: float
    mean_cost: float
    exit_status: dict[str, int]
    attempts: int
    pass_at_k: dict[str, float] = Field(default_factory=dict)
    instances: list[InstanceAttempt]


class Flip(_Model):
    instance_id: str
    repo: str
    a: bool
    b: bool


class RepoDelta(_Model):
    repo: str
    instances: int
    a_resolved: int
    b_resolved: int
    delta_pct: float


class CompareReport(_Model):
    """`compare.json` from `swerl eval compare RUN_A RUN_B` (paired over the instances both runs have)."""

    run_a: str
    run_b: str
    common: int
    only_a: list[str]
    only_b: list[str]
    a_resolved_pct: float
    b_resolved_pct: float
    delta_pct: float
    ci_low: float
    ci_high: float
    confidence: float
    bootstrap_samples: int
    seed: int
    gained: list[Flip]
    lost: list[Flip]
    per_repo: list[RepoDelta]
    chart: str | None = None
