"""A mini-swe-agent `Environment` over a swerl sandbox (mini-swe-agent itself stays unchanged).

Deliberate differences from its own environments: the submission is the patch computed on
the host (`extract_patch`), not the command's output (git is disabled inside, and the agent
could print anything); the per-rollout deadline ends the run as `TimeExceeded`;
`SandboxError` propagates so the controller retries infrastructure failures.
"""

from __future__ import annotations

import logging
import platform
import re
import shlex
from typing import Any

from pydantic import BaseModel, field_validator

from swerl.log import get_logger
from swerl.sandbox.base import RolloutDeadline, Sandbox, SandboxHandle

log = get_logger(__name__)

SUBMIT_MARKER = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


class SwerlEnvironmentConfig(BaseModel):
    cwd: str = ""
    """Working directory for commands; empty = the task's work dir (/testbed)."""
    timeout: int = 60
    """Per-command timeout in seconds (the per-rollout deadline still applies)."""
    env: dict[str, str] = {}
    """Environment variables set for every command (mini-swe-agent's `environment.env`), e.g. a tool's program."""

    @field_validator("env")
    @classmethod
    def _names(cls, v: dict[str, str]) -> dict[str, str]:
        bad = [k for k in v if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k)]
        if bad:
            raise ValueError(f"environment.env: {', '.join(map(repr, bad))} is not a shell variable name")
        return v


class SwerlEnvironment:
    """`SwerlEnvironment(sandbox=..., handle=...)`; the caller owns (starts and stops) the sandbox."""

    def __init__(self, *, sandbox: Sandbox, handle: SandboxHandle, config_class: type = SwerlEnvironmentConfig,
                 logger: logging.Logger | None = None, **kwargs: Any) -> None:
        self.sandbox = sandbox
        self.handle = handle
        self.config = config_class(**kwargs)
        self.logger = logger or logging.getLogger("minisweagent.environment")
        self.submission: Any = None

    def execute(self, action: dict, cwd: str = "", *, timeout: int | None = None) -> dict[str, Any]:
        from minisweagent.exceptions import Submitted, TimeExceeded

        command = action.get("command", "")
        if self.config.env:  # exported in the same shell, so the command sees them (and nothing persists)
            command = "".join(f"export {k}={shlex.quote(str(v))}; " for k, v in self.config.env.items()) + command
        try:
            res = self.sandbox.exec(self.handle, command, timeout=timeout or self.config.timeout,
                                    cwd=cwd or self.config.cwd or None)
        except RolloutDeadline as exc:
            raise TimeExceeded({"role": "exit", "content": "TimeExceeded",
                                "extra": {"exit_status": "TimeExceeded", "submission": "", "reason": str(exc)}}) from exc
        output: dict[str, Any] = {"output": res.output, "returncode": res.returncode, "exception_info": ""}
        if res.timed_out:
            output["exception_info"] = f"The command timed out and was killed (limit {timeout or self.config.timeout}s)."
            output["extra"] = {"exception_type": "TimeoutExpired", "exception": "timeout"}
        lines = res.output.lstrip().splitlines()
        if lines and lines[0].strip() == SUBMIT_MARKER:
            patch = self.sandbox.extract_patch(self.handle)
            self.submission = patch
            log.info("submitted", instance=self.handle.task.instance_id, files=len(patch.files),
                     dropped=len(patch.dropped))
            raise Submitted({"role": "exit", "content": patch.patch, "extra": {
                "exit_status": "Submitted", "submission": patch.patch,
                "dropped": [d.model_dump() for d in patch.dropped]}})
        return output

    def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
        return {**self.config.model_dump(), **platform.uname()._asdict(), "cwd": self.config.cwd or self.handle.task.workdir,
                "instance_id": self.handle.task.instance_id, **kwargs}

    def serialize(self) -> dict:
        return {"info": {"config": {
            "environment": {**self.config.model_dump(mode="json"), "backend": self.handle.backend,
                            "sandbox_id": self.handle.id},
            "environment_type": f"{self.__class__.__module__}.{self.__class__.__name__}",
        }}}

    def cleanup(self) -> None:
        """The sandbox belongs to the caller; nothing to do (kept for mini-swe-agent's interface)."""
