"""One mini-swe-agent run on one task in one hardened sandbox: `run_agent` (docs/rollout.md).

mini-swe-agent runs unchanged in this process, outside the sandbox: the sandbox has no route to
the gateway and never sees a token, and the patch is computed on the host when the agent submits.
The trajectory is written by swerl, redacted: mini-swe-agent is never given the path, because it
would write its un-redacted config (api_key included) after every step.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swerl.atomic import write_text_atomic
from swerl.log import get_logger
from swerl.rollout.classify import classify_exception, classify_exit, is_context_overflow
from swerl.rollout.harness import agent_settings, harness_env, make_model, resolve
from swerl.rollout.held import HeldTime, reading_held_time
from swerl.rollout.redact import redact
from swerl.rollout.schema import AgentResult, ModelEndpoint
from swerl.rollout.tasks import as_sandbox_task
from swerl.sandbox.base import Sandbox, SandboxHandle
from swerl.sandbox.schema import PatchResult, SandboxTask
from swerl.tasks.schema import TaskRow

log = get_logger(__name__)


def run_agent(task: TaskRow | SandboxTask, *, sandbox: Sandbox, endpoint: ModelEndpoint,
              agent_config: dict[str, Any] | None = None, output_path: Path | None = None,
              held_s: HeldTime | Callable[[], float] | None = None) -> AgentResult:
    """Run mini-swe-agent on `task` in a fresh hardened sandbox against `endpoint` (see the module docstring).
    The recipe's settings come typed in `endpoint.rollout` (harness, `max_steps`, `context_overflow`;
    `make_model` reads sampling and `keep_rejected_replies`), so each has the one default `RolloutConfig`
    declares; `agent_config` is
    mini-swe-agent's own config only (`{agent, model, environment}` merged over the harness's).
    `held_s`: the time the gateway has held this rollout's calls (paused for an update; `swerl.rollout.held`);
    the sandbox deadline moves by every increase, so the time budget counts only time the agent had."""
    t0 = time.monotonic()
    rollout = endpoint.rollout
    stask = as_sandbox_task(task)
    handle: SandboxHandle | None = None
    agent: Any = None
    env: Any = None
    result = AgentResult(instance_id=stask.instance_id, exit_status="NotStarted")
    try:
        harness_env()
        from minisweagent.agents.default import DefaultAgent

        from swerl.sandbox.minisweagent_env import SwerlEnvironment

        spec = resolve(rollout.harness)
        settings = agent_settings(spec, step_limit=rollout.max_steps, overrides=agent_config)
        model = make_model(spec, endpoint, settings["model"])
        handle = sandbox.start(stask)
        env = SwerlEnvironment(sandbox=sandbox, handle=handle, **{
            "timeout": int(sandbox.settings.command_timeout_s), **settings["environment"]})
        _watch_held(model, env, handle, HeldTime.of(held_s))
        # The time budget is the sandbox deadline (RolloutDeadline -> TimeExceeded at the next command), which
        # excludes held time; mini-swe-agent's own wall-time limit would count the trainer's pauses.
        agent = DefaultAgent(model, env, **{"wall_time_limit_seconds": 0, **settings["agent"]})
        statement = task.problem_statement if isinstance(task, TaskRow) else stask.row.get("problem_statement")
        info = agent.run(str(statement or ""))
        _record_exit(result, info, env, agent)
    except Exception as exc:  # classified, never raised: the caller records the outcome
        result.exit_status = type(exc).__name__
        result.error_kind = classify_exception(exc)
        result.error = f"{type(exc).__name__}: {exc}"[:4000]
        log.warning("agent run failed", instance=stask.instance_id, kind=result.error_kind, error=result.error[:300])
        if handle is not None and is_context_overflow(exc):
            _context_overflow(result, rollout.context_overflow, sandbox, handle)
    finally:  # also on KeyboardInterrupt: the sandbox never outlives the run
        if handle is not None:
            sandbox.stop(handle)
        result.n_calls = int(getattr(agent, "n_calls", 0))
        result.duration_s = time.monotonic() - t0
        if output_path is not None:
            result.trajectory_path = Path(output_path)
            save_trajectory(Path(output_path), agent, result, secrets=[endpoint.api_key.get_secret_value()])
    log.info("agent finished", instance=stask.instance_id, exit_status=result.exit_status, kind=result.error_kind,
             calls=result.n_calls, submitted=result.submitted, seconds=round(result.duration_s, 2))
    return result


def _record_exit(result: AgentResult, info: dict[str, Any], env: Any, agent: Any) -> None:
    """Fill `result` from a run that returned: its exit status and class, and the patch when the agent submitted
    one; an agent-side failure also records why, since the status alone does not say what went wrong."""
    result.exit_status = str(info.get("exit_status") or "Unknown")
    result.error_kind = classify_exit(result.exit_status)
    submission = getattr(env, "submission", None)
    if result.exit_status == "Submitted" and isinstance(submission, PatchResult):
        result.submitted = True
        result.patch, result.files, result.dropped = submission.patch, submission.files, submission.dropped
    elif result.error_kind == "agent":
        result.error = _exit_reason(agent)


def _context_overflow(result: AgentResult, mode: str, sandbox: Sandbox, handle: SandboxHandle) -> None:
    """`rollout.context_overflow` (docs/algorithms.md sec. 13). The failed call is never trained on (the gateway
    recorded an error); `truncate` collects the work tree as it stood after the last complete turn and hands it
    to grading as a submission, so the rollout's earlier calls are trained with the reward that work earns."""
    result.context_overflow = True
    if mode != "truncate":
        return
    try:
        patch = sandbox.extract_patch(handle)
    except Exception as exc:  # the agent's files broke the collection: its own doing, as on submit
        result.error = f"context overflow; collecting the work tree failed: {type(exc).__name__}: {exc}"[:4000]
        result.error_kind = classify_exception(exc)
        return
    result.exit_status, result.error_kind, result.submitted = "ContextOverflow", None, True
    result.patch, result.files, result.dropped = patch.patch, patch.files, patch.dropped
    log.info("context overflow: graded at the last complete turn", instance=handle.task.instance_id,
             files=len(patch.files))


def load_agent_yaml(path: Path | str | None) -> dict[str, Any]:
    """`--agent-config FILE`: mini-swe-agent-shaped YAML (`agent:`, `model:`, `environment:`, plus swerl's
    `harness` and `step_limit`, which `swerl.rollout.schema.split_agent_config` moves into the rollout section)
    merged over the harness's config; {} for None."""
    from swerl.config import load_yaml_mapping

    if not path:
        return {}
    return load_yaml_mapping(Path(path).expanduser(), f"--agent-config {str(path)!r}",
                             "agent:, model:, environment:, harness:")


def _watch_held(model: Any, env: Any, handle: SandboxHandle, held: HeldTime | None) -> None:
    """The model reports each answer's held time (litellm's response headers; a model class without `_query` is
    not watched, and the gateway is asked when the budget looks spent); each command first extends the deadline."""
    if held is None:
        return
    if callable(getattr(model, "_query", None)):
        model._query = reading_held_time(model._query, held)
    env.execute = _excluding_held_time(env.execute, handle, held)


def _excluding_held_time(execute: Callable[..., dict[str, Any]], handle: SandboxHandle,
                         held: HeldTime) -> Callable[..., dict[str, Any]]:
    """`execute` that first moves the sandbox deadline by the held time reported since the last command."""

    def run(*args: Any, **kw: Any) -> dict[str, Any]:
        held.extend(handle)
        return execute(*args, **kw)

    return run


def _exit_reason(agent: Any) -> str | None:
    last = agent.messages[-1] if agent is not None and agent.messages else {}
    extra = last.get("extra", {}) if isinstance(last, dict) else {}
    return str(extra.get("reason") or extra.get("exit_status") or last.get("content") or "")[:4000] or None


def save_trajectory(path: Path, agent: Any, result: AgentResult, secrets: list[str]) -> None:
    """Write the trajectory in mini-swe-agent's format (+ `info.swerl`), redacted, atomically."""
    swerl_info = {"info": {"swerl": result.model_dump(mode="json", exclude={"trajectory_path"})}}
    if agent is not None:
        data = agent.serialize(swerl_info)
    else:  # the run failed before the agent existed (e.g. the sandbox did not start)
        data = {**swerl_info, "messages": [], "trajectory_format": "mini-swe-agent-1.1"}
        data["info"] |= {"exit_status": result.exit_status, "submission": ""}
    write_text_atomic(path, json.dumps(redact(data, secrets), indent=2, default=str))
