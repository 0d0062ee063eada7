"""One rollout through the gateway: claim it, run the agent against its proxy, grade, write the reward.

    queued --claim--> running --run_agent--> grade in a fresh sandbox --> reward event --> succeeded
                                     |                                                 `-> failed_agent
                                     `-- infra failure --> failed_infra --(retry)--> queued (attempt + 1)

Outcome rules (docs/rollout.md):
- the agent submitted -> the patch is graded in a fresh sandbox -> reward 1.0 if
  resolved else 0.0, state `succeeded` (a wrong fix is a succeeded rollout with reward 0:
  it is a normal training sample);
- the agent failed on its own (step limit, time budget, format errors, context) ->
  reward 0.0 without grading, state `failed_agent` (trained on);
- infrastructure failed (sandbox, engine, gateway, grading sandbox) -> `failed_infra`,
  **no reward event**, retried as a new attempt while attempts are left.

The reward is written by this process, from the host-side grade; nothing inside a
sandbox can reach the gateway. Each attempt rotates the rollout's token, so a stale
worker of an earlier attempt loses model access, and every state change carries the
attempt as a guard, so it cannot finish the retried rollout either (409 -> `stale`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swerl.gateway.client import GatewayClient, GatewayError
from swerl.log import get_logger
from swerl.rollout.agent import run_agent
from swerl.rollout.schema import AgentResult, ModelEndpoint, RolloutOutcome, RolloutSettings
from swerl.sandbox.base import Sandbox
from swerl.sandbox.schema import GradeResult, SandboxTask

log = get_logger(__name__)

TaskLookup = Callable[[str], SandboxTask]
Observer = Callable[[RolloutOutcome], None]


class StaleAttempt(Exception):
    """Another attempt owns the rollout now (retried by the controller, or finished)."""


class Runner:
    """Runs rollouts declared in a gateway. `tasks` maps an instance_id to its `SandboxTask`
    (e.g. `TaskSource(...).task`); `observer` sees every attempt's outcome (metrics, tests)."""

    def __init__(self, client: GatewayClient, sandbox: Sandbox, tasks: TaskLookup, settings: RolloutSettings,
                 observer: Observer | None = None) -> None:
        self.client, self.sandbox, self.tasks, self.settings = client, sandbox, tasks, settings
        self.observer = observer

    # ---------------------------------------------------------------------------------- attempts
    def run(self, rollout_id: str) -> RolloutOutcome:
        """Run attempts until one is not an infra failure or the rollout's attempts are used up."""
        retries = 0
        while True:
            out = self.run_attempt(rollout_id)
            if out.state != "failed_infra":
                return out
            r = self.client.rollout(rollout_id)
            if r["attempt"] >= r["max_attempts"] or retries >= self.settings.max_infra_retries:
                log.warning("infra retries used up", rollout=rollout_id, attempt=out.attempt, error=out.error)
                return out
            retries += 1
            time.sleep(self.settings.retry_delay_s)
            try:
                self.client.set_state(rollout_id, "queued", attempt=out.attempt, reason="infra retry")
            except GatewayError as exc:
                if exc.status != 409:
                    raise
                return out.model_copy(update={"state": "stale"})

    def run_attempt(self, rollout_id: str, attempt: int | None = None, token: str | None = None) -> RolloutOutcome:
        """One attempt: claim a queued rollout (queued -> running), or take over the claimed (`running`)
        `attempt` a launcher was started for; run, grade, record. Anything else is `skipped`."""
        t0 = time.monotonic()
        try:
            r, attempt = self._claim(rollout_id, attempt)
        except StaleAttempt as exc:
            log.info("rollout not runnable", rollout=rollout_id, reason=str(exc))
            return RolloutOutcome(rollout_id=rollout_id, attempt=attempt or 0, state="skipped", error=str(exc))
        iid = str(r.get("metadata", {}).get("instance_id", ""))
        out = RolloutOutcome(rollout_id=rollout_id, attempt=attempt, state="failed_infra", instance_id=iid or None)
        try:
            out = self._attempt(r, attempt, token, out)
        except StaleAttempt as exc:
            out = out.model_copy(update={"state": "stale", "error": str(exc)})
        out.duration_s = time.monotonic() - t0
        log.info("rollout attempt done", rollout=rollout_id, attempt=attempt, state=out.state, reward=out.reward,
                 kind=out.error_kind, seconds=round(out.duration_s, 2))
        if self.observer is not None:
            self.observer(out)
        return out

    def _claim(self, rid: str, attempt: int | None) -> tuple[dict[str, Any], int]:
        r = self.client.rollout(rid)
        if attempt is not None and r["attempt"] != attempt:
            raise StaleAttempt(f"attempt {attempt} is stale (rollout at attempt {r['attempt']}, {r['state']})")
        if r["state"] == "queued":
            r = self._guarded(self.client.set_state, rid, "running", attempt=r["attempt"])
        elif r["state"] != "running" or attempt is None:  # running without a named attempt: someone else's
            raise StaleAttempt(f"rollout is {r['state']}")
        return r, int(r["attempt"])

    def _guarded(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except GatewayError as exc:
            if exc.status == 409:
                raise StaleAttempt(exc.message) from exc
            raise

    def _attempt(self, r: dict[str, Any], attempt: int, token: str | None, out: RolloutOutcome) -> RolloutOutcome:
        rid = r["id"]
        try:
            task = self.tasks(out.instance_id or "")
        except Exception as exc:  # unknown task: a setup problem, never the agent's
            return self._infra(out, f"task {out.instance_id!r}: {exc}")
        token = token or self._guarded(self.client.rotate_token, rid)
        endpoint = self.settings.endpoint(self.client.proxy_base_url(rid), token)
        traj = (self.settings.trajectories_dir / f"{rid}.attempt{attempt}.traj.json"
                if self.settings.trajectories_dir else None)
        att = evaluate(task, self.sandbox, endpoint, self.settings, traj)
        out.agent, out.grade = att.agent, att.grade
        if att.state == "failed_infra":
            return self._infra(out, att.error or "infrastructure failure")
        res, grade, state, reward = att.agent, att.grade, att.state, att.reward
        self._ensure_current(rid, attempt)
        self._guarded(self.client.add_reward, rid, reward, attempt=attempt, data=reward_data(res, grade))
        self._guarded(self.client.set_state, rid, state, attempt=attempt,
                      reason=None if res.submitted else (res.error or res.exit_status))
        return out.model_copy(update={"state": state, "reward": reward, "resolved": att.resolved,
                                      "error_kind": res.error_kind, "error": res.error})

    def _ensure_current(self, rid: str, attempt: int) -> None:
        """Do not write a reward for an attempt that has been superseded meanwhile."""
        r = self.client.rollout(rid)
        if r["attempt"] != attempt or r["state"] != "running":
            raise StaleAttempt(f"attempt {attempt} superseded (rollout at attempt {r['attempt']}, {r['state']})")

    def _infra(self, out: RolloutOutcome, error: str) -> RolloutOutcome:
        self._guarded(self.client.set_state, out.rollout_id, "failed_infra", attempt=out.attempt, reason=error[:3900])
        return out.model_copy(update={"state": "failed_infra", "error_kind": "infra", "error": error})


@dataclass
class Attempt:
    """An agent run and its grade, before anything is recorded: `state` is what the gateway should say."""

    agent: AgentResult
    state: str
    reward: float | None = None
    resolved: bool | None = None
    grade: GradeResult | None = None
    error: str | None = None


def evaluate(task: SandboxTask, sandbox: Sandbox, endpoint: ModelEndpoint, settings: RolloutSettings,
             trajectory: Path | None = None) -> Attempt:
    """Run the agent and grade its submission in a fresh sandbox; no gateway writes (the runner and the
    direct-endpoint probe share this). Rules: see the module docstring."""
    res = run_agent(task, sandbox=sandbox, endpoint=endpoint, agent_config=settings.agent_overrides(),
                    output_path=trajectory)
    if res.error_kind == "infra":
        return Attempt(res, "failed_infra", error=res.error or res.exit_status)
    grade: GradeResult | None = None
    if res.submitted and res.patch.strip():
        try:
            grade = sandbox.grade(task, res.patch)
        except Exception as exc:  # the grading sandbox failed: nothing the agent did
            return Attempt(res, "failed_infra", error=f"grading failed: {type(exc).__name__}: {exc}")
    resolved = bool(grade and grade.resolved)
    return Attempt(res, "succeeded" if res.submitted else "failed_agent", reward=1.0 if resolved else 0.0,
                   resolved=resolved, grade=grade, error=res.error)


def reward_data(res: AgentResult, grade: GradeResult | None) -> dict[str, Any]:
    """What the reward event keeps next to the number: enough to audit it without the trajectory."""
    data: dict[str, Any] = {"exit_status": res.exit_status, "submitted": res.submitted, "n_calls": res.n_calls,
                            "files": res.files, "dropped": [d.model_dump() for d in res.dropped],
                            "resolved": bool(grade and grade.resolved)}
    if grade is not None:
        data |= {"resolution": grade.resolution, "patch_applied": grade.patch_applied,
                 "fail_to_pass": grade.fail_to_pass.model_dump(), "pass_to_pass": grade.pass_to_pass.model_dump(),
                 "test_exit_code": grade.test_exit_code, "timed_out": grade.timed_out}
    return data


def load_sandbox(section: Any, rootfs: str = "auto") -> Sandbox:
    """The recipe's sandbox backend; bwrap gets the cached debootstrap tree unless `rootfs` is 'host' or a dir."""
    from swerl.sandbox.base import load_backend
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    settings = SandboxSettings.from_recipe(section)
    if settings.backend == "bwrap" and rootfs != "host":
        if rootfs == "auto":
            from swerl.sandbox.images import ensure_rootfs

            path = ensure_rootfs()
        else:
            path = Path(rootfs)
        settings = settings.model_copy(update={"bwrap": BwrapSettings(rootfs=path)})
    return load_backend(settings)
