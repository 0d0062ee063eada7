"""`EvalOptions`: every knob of `swerl eval swebench`, as one validated model (the CLI only fills it in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from swerl.sandbox.schema import SandboxSettings

VERIFIED = "princeton-nlp/SWE-bench_Verified"


class EvalOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    out: Path
    model: str | None = Field(None, description="Endpoint URL or checkpoint dir; not needed with grade_only.")
    model_name: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    engine: Literal["auto", "embedded", "vllm"] = "auto"
    dataset: str = VERIFIED
    split: str = "test"
    instances: str | None = None
    limit: int | None = Field(None, ge=1)
    workers: int = Field(1, ge=1)
    attempts: int = Field(1, ge=1)
    backend: str = "docker"
    docker_host: str | None = None
    rootfs: str = "auto"
    grader: Literal["auto", "official", "sandbox"] = "auto"
    grade_only: Path | None = None
    run_only: bool = False
    redo: bool = False
    harness: str | None = Field(None, description="mini-swe-agent | mini-swe-agent-textbased | terminus-2 (harbor's "
                                                  "Terminus-2, --backend bwrap) | pkg.mod:Class; default: by engine "
                                                  "(text-based for the embedded engine).")
    agent_config: dict[str, Any] = Field(default_factory=dict, description="mini-swe-agent config overrides.")
    agent_config_path: str | None = None
    step_limit: int = Field(250, ge=1)
    temperature: float = Field(0.0, ge=0)
    max_tokens: int = Field(4096, gt=0)
    call_timeout_s: float = Field(600.0, gt=0)
    command_timeout_s: float = Field(60.0, gt=0)
    rollout_timeout_s: float = Field(3600.0, gt=0)
    grade_timeout_s: float = Field(1800.0, gt=0)
    infra_retries: int = Field(2, ge=0)
    pull: bool = Field(True, description="docker: pull a missing instance image before running it.")
    gateway: str | None = None
    gateway_token_file: Path | None = None
    sandbox: SandboxSettings | None = Field(None, description="Full sandbox settings (overrides backend/timeouts).")
