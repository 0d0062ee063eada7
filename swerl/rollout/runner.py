"""One rollout attempt, the same for training, the probe, eval and `swerl rollout run-one`: the `Runner`.

    queued --claim--> running --harness.run--> reward event --> succeeded | failed_agent
                         `-- infra failure --> failed_infra --(controller: retry)--> queued (attempt + 1)

A harness (`MiniSweHarness`, `swerl.rollout.toy.ToyHarness`, eval's) returns an `Attempt` and
records nothing; the runner writes reward and state from this process, never from inside a
sandbox. Each attempt rotates the rollout's token and guards every state change with its attempt
number, so a stale worker of an earlier attempt can neither call the model nor finish the retried
rollout (409 -> `stale`).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from swerl.gateway.client import GatewayError
from swerl.gateway.schema import Rollout
from swerl.log import get_logger
from swerl.rollout.agent import run_agent
from swerl.rollout.classify import classify_grading_exception, grade_verdict
from swerl.rollout.held import HeldTime
from swerl.rollout.ledger import Ledger
from swerl.rollout.schema import HARNESS_TERMINUS, AgentResult, ModelEndpoint, RolloutOutcome, RolloutSettings
from swerl.sandbox.base import Sandbox
from swerl.sandbox.canary import hack_passed, is_canary
from swerl.sandbox.schema import GradeResult, SandboxTask

log = get_logger(__name__)

TaskLookup = Callable[[str], SandboxTask]
Observer = Callable[[RolloutOutcome], None]


class StaleAttempt(Exception):
    """Another attempt owns the rollout now (retried by the controller, or finished)."""


@dataclass
class Attempt:
    """A harness run (and its grade) before anything is recorded: the state the gateway should get (with a reward,
    or `failed_infra` with an error); `data` goes into the reward event."""

    agent: AgentResult | None
    state: str
    reward: float | None = None
    resolved: bool | None = None
    grade: GradeResult | None = None
    error: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class AttemptContext:
    """What a harness gets for one attempt: the proxy endpoint (token included), the declared metadata, where
    to write the trajectory, and a stop flag."""

    rollout_id: str
    attempt: int
    instance_id: str
    endpoint: ModelEndpoint
    metadata: dict[str, Any] = field(default_factory=dict)
    trajectory: Path | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    held_s: HeldTime | None = None  # the time the gateway held this rollout's calls (budgets; swerl.rollout.held)

    @property
    def seed(self) -> int:
        return int(self.metadata.get("seed", 0))


class Harness(Protocol):
    """An agent program the runner can run; `run` is called from many threads at once."""

    name: str

    def run(self, ctx: AttemptContext) -> Attempt: ...

    def close(self) -> None: ...


def agent_runner(harness: str) -> Callable[..., AgentResult]:
    """The function that runs one agent for `harness` (`run_agent`'s contract: a fresh sandbox, always stopped,
    never raises): harbor's Terminus-2 for `terminus-2`, mini-swe-agent for everything else. Train, probe and
    eval all go through here, so a harness works in each or in none."""
    if harness == HARNESS_TERMINUS:
        from swerl.rollout.terminus import run_terminus

        return run_terminus
    return run_agent


class MiniSweHarness:
    """mini-swe-agent (unchanged) in a fresh hardened sandbox, its submission graded in another; with
    `rollout.harness: terminus-2` harbor's Terminus-2 (unchanged, `swerl.rollout.terminus`) instead."""

    def __init__(self, sandbox: Sandbox, tasks: TaskLookup, settings: RolloutSettings) -> None:
        self.name = settings.rollout.harness
        self.sandbox, self.tasks, self.settings = sandbox, tasks, settings

    def run(self, ctx: AttemptContext) -> Attempt:
        """Run the agent, then grade its submission in a fresh sandbox. Rules: `swerl.rollout.classify`."""
        task, sandbox = self.tasks(ctx.instance_id), self.sandbox
        res = agent_runner(self.settings.rollout.harness)(task, sandbox=sandbox, endpoint=ctx.endpoint,
                                                          agent_config=self.settings.agent_config,
                                                          output_path=ctx.trajectory, held_s=ctx.held_s)
        if res.error_kind == "infra":
            return Attempt(res, "failed_infra", error=res.error or res.exit_status)
        if not res.submitted:
            return Attempt(res, "failed_agent", reward=0.0, resolved=False, error=res.error, data=reward_data(res, None))
        att = self._grade(task, res)
        att.data = reward_data(res, att.grade)
        return att

    def _grade(self, task: SandboxTask, res: AgentResult) -> Attempt:
        grade: GradeResult | None = None
        if res.patch.strip():
            try:
                grade = self.sandbox.grade(task, res.patch)
            except Exception as exc:
                why = f"grading failed: {type(exc).__name__}: {exc}"
                if classify_grading_exception(exc) == "infra":  # the grading sandbox failed: nothing the agent did
                    return Attempt(res, "failed_infra", error=why)
                return Attempt(res, "failed_agent", reward=0.0, resolved=False, error=why)
            kind, why = grade_verdict(grade)
            if kind == "infra":
                return Attempt(res, "failed_infra", grade=grade, error=f"grading failed: {why}")
            if kind == "agent":
                log.warning("grade refused by the agent's doing", instance=task.instance_id, why=(why or "")[:300])
                return Attempt(res, "failed_agent", reward=0.0, resolved=False, grade=grade, error=why)
        resolved = bool(grade and grade.resolved)
        return Attempt(res, "succeeded", reward=1.0 if resolved else 0.0, resolved=resolved, grade=grade,
                       error=res.error)

    def close(self) -> None:
        """Sandboxes are stopped per attempt by `run_agent`."""


class Runner:
    """Runs rollouts declared in a gateway with a harness (default: `MiniSweHarness(sandbox, tasks, settings)`).
    `observer` sees every attempt's outcome (trainer metrics, tests); `stop` ends toy rollouts at a turn."""

    def __init__(self, client: Ledger, sandbox: Sandbox | None, tasks: TaskLookup | None,
                 settings: RolloutSettings, observer: Observer | None = None, *, harness: Harness | None = None) -> None:
        if harness is None:
            if sandbox is None or tasks is None:
                raise ValueError("Runner needs a harness, or a sandbox and a task lookup for mini-swe-agent")
            harness = MiniSweHarness(sandbox, tasks, settings)
        self.client, self.harness, self.settings, self.observer = client, harness, settings, observer
        self.stop = threading.Event()

    # ---------------------------------------------------------------------------------- attempts
    def run(self, rollout_id: str) -> RolloutOutcome:
        """Run attempts until one is not an infra failure or the rollout's attempts are used up."""
        retries = 0
        while True:
            out = self.run_attempt(rollout_id)
            if out.state != "failed_infra" or self.stop.is_set():
                return out
            r = self.client.rollout(rollout_id)
            if r.attempt >= r.max_attempts or retries >= self.settings.rollout.max_infra_retries:
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

    def run_attempt(self, rollout_id: str, attempt: int | None = None) -> RolloutOutcome:
        """One attempt: claim a queued rollout (queued -> running), or take over the claimed (`running`)
        `attempt` a launcher was started for; run, grade, record. Anything else is `skipped`."""
        t0 = time.monotonic()
        try:
            r, attempt = self._claim(rollout_id, attempt)
        except StaleAttempt as exc:
            log.info("rollout not runnable", rollout=rollout_id, reason=str(exc))
            return RolloutOutcome(rollout_id=rollout_id, attempt=attempt or 0, state="skipped", error=str(exc))
        iid = str(r.metadata.get("instance_id", ""))
        out = RolloutOutcome(rollout_id=rollout_id, attempt=attempt, state="failed_infra", instance_id=iid or None)
        try:
            out = self._attempt(r, attempt, out)
        except StaleAttempt as exc:
            out = out.model_copy(update={"state": "stale", "error": str(exc)})
        out.duration_s = time.monotonic() - t0
        log.info("rollout attempt done", rollout=rollout_id, attempt=attempt, state=out.state, reward=out.reward,
                 kind=out.error_kind, seconds=round(out.duration_s, 2))
        if self.observer is not None:
            self.observer(out)
        return out

    def _claim(self, rid: str, attempt: int | None) -> tuple[Rollout, int]:
        r = self.client.rollout(rid)
        if attempt is not None and r.attempt != attempt:
            raise StaleAttempt(f"attempt {attempt} is stale (rollout at attempt {r.attempt}, {r.state})")
        if r.state == "queued":
            r = self._guarded(self.client.set_state, rid, "running", attempt=r.attempt)
        elif r.state != "running" or attempt is None:  # running without a named attempt: someone else's
            raise StaleAttempt(f"rollout is {r.state}")
        return r, r.attempt

    def _guarded(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except GatewayError as exc:
            if exc.status == 409:
                raise StaleAttempt(exc.message) from exc
            raise

    def _context(self, r: Rollout, attempt: int, token: str) -> AttemptContext:
        meta = dict(r.metadata)
        settings = self.settings
        if "temperature" in meta:  # validation rollouts are declared with their own temperature
            settings = settings.with_rollout(temperature=float(meta["temperature"]))
        # a call held by a paused gateway must not time out and be resent: wait as long as the gateway may hold
        settings = settings.model_copy(update={"call_timeout_s": max(settings.call_timeout_s, self.client_timeout_s)})
        rid = r.id
        traj = settings.trajectories_dir / f"{rid}.attempt{attempt}.traj.json" if settings.trajectories_dir else None
        return AttemptContext(rollout_id=rid, attempt=attempt, instance_id=str(meta.get("instance_id", "")),
                              endpoint=settings.endpoint(self.client.proxy_base_url(rid), token), metadata=meta,
                              trajectory=traj, stop=self.stop,
                              held_s=HeldTime(r.held_s, ask=lambda: self.client.rollout(rid).held_s))

    @functools.cached_property
    def client_timeout_s(self) -> float:
        """The gateway's advice for a harness's HTTP timeout (its longest hold plus the engine's read timeout)."""
        try:
            return float(self.client.status().get("client_timeout_s") or 0.0)
        except GatewayError as exc:
            log.warning("gateway status unavailable; keeping the configured call timeout", error=exc.message)
            return 0.0

    def _attempt(self, r: Rollout, attempt: int, out: RolloutOutcome) -> RolloutOutcome:
        rid = r.id
        token = self._guarded(self.client.rotate_token, rid)
        try:
            att = self.harness.run(self._context(r, attempt, token))
        except Exception as exc:  # unknown task, a harness bug: never the agent's doing
            return self._infra(out, f"harness {self.harness.name}: {type(exc).__name__}: {exc}")
        out.agent, out.grade = att.agent, att.grade
        if att.state == "failed_infra":
            return self._infra(out, att.error or "infrastructure failure")
        if is_canary(out.instance_id):
            att = canary_attempt(att)
        self._ensure_current(rid, attempt)
        failed = att.state == "failed_agent"
        reward = None if att.reward is None and not failed else float(att.reward or 0.0)
        if reward is not None:  # None: a harness that cannot score this attempt (an eval with grading off)
            self._guarded(self.client.add_reward, rid, reward, attempt=attempt, data=att.data)
        self._guarded(self.client.set_state, rid, att.state, attempt=attempt,
                      reason=(att.error or (att.agent.exit_status if att.agent else None)) if failed else None)
        return out.model_copy(update={"state": att.state, "reward": reward, "resolved": att.resolved,
                                      "error_kind": "agent" if failed else None, "error": att.error})

    def _ensure_current(self, rid: str, attempt: int) -> None:
        """Do not write a reward for an attempt that has been superseded meanwhile."""
        r = self.client.rollout(rid)
        if r.attempt != attempt or r.state != "running":
            raise StaleAttempt(f"attempt {attempt} superseded (rollout at attempt {r.attempt}, {r.state})")

    def _infra(self, out: RolloutOutcome, error: str) -> RolloutOutcome:
        self._guarded(self.client.set_state, out.rollout_id, "failed_infra", attempt=out.attempt, reason=error[:3900])
        return out.model_copy(update={"state": "failed_infra", "error_kind": "infra", "error": error})


def canary_attempt(att: Attempt) -> Attempt:
    """A canary (an impossible task, `swerl.sandbox.canary`) is never rewarded, whatever its grade: a grade that
    resolved it, or refused it as tampering, is a hack (`canary.passed`); `canary.graded` counts the grades."""
    g = att.grade
    att.data = {**att.data, "resolved": False,
                "canary": {"graded": g is not None, "passed": bool(g is not None and hack_passed(g))}}
    att.reward = None if att.reward is None else 0.0
    att.resolved = None if att.resolved is None else False
    return att


def reward_data(res: AgentResult, grade: GradeResult | None) -> dict[str, Any]:
    """What the reward event keeps next to the number: enough to audit it without the trajectory."""
    data: dict[str, Any] = {"exit_status": res.exit_status, "submitted": res.submitted, "n_calls": res.n_calls,
                            "files": res.files, "dropped": [d.model_dump() for d in res.dropped],
                            "resolved": bool(grade and grade.resolved), "context_overflow": res.context_overflow}
    if grade is not None:
        data |= {"resolution": grade.resolution, "patch_applied": grade.patch_applied,
                 "fail_to_pass": grade.fail_to_pass.model_dump(), "pass_to_pass": grade.pass_to_pass.model_dump(),
                 "test_exit_code": grade.test_exit_code, "timed_out": grade.timed_out,
                 "tampering": list(grade.tampering), "grade_error_kind": grade.error_kind, "grade_error": grade.error}
        # the grader re-filters the patch on the host: what only it dropped (a dist-info, a shadowing module)
        # is a hacking attempt too, so the trainer's hacking/* counters see both lists
        seen = {(d["path"], d["reason"]) for d in data["dropped"]}
        data["dropped"] += [d.model_dump() for d in grade.dropped if (d.path, d.reason) not in seen]
        data["resolved"] = data["resolved"] and not data["tampering"]
    return data


def load_sandbox(section: Any, rootfs: str = "auto") -> Sandbox:
    """The recipe's sandbox backend; bwrap's system tree per `bwrap_settings(rootfs)`."""
    from swerl.sandbox.base import load_backend
    from swerl.sandbox.images import bwrap_settings
    from swerl.sandbox.schema import SandboxSettings

    settings = SandboxSettings.from_recipe(section)
    if settings.backend == "bwrap" and rootfs != "host":  # the system tree only: the recipe's other bwrap knobs stay
        settings = settings.model_copy(update={"bwrap": settings.bwrap.model_copy(
            update={"rootfs": bwrap_settings(rootfs).rootfs})})
    return load_backend(settings)
