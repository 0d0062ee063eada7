"""Agent-caused failures are the agent's (reward 0, trained), infra stays retried: through the real runner.

A scripted model drives mini-swe-agent in a real bwrap sandbox through a real gateway;
each test makes the agent (or, for contrast, the infrastructure) break something and
checks what the gateway recorded: the state, the reward event, and whether a retry ran.
"""

from __future__ import annotations

from typing import Any

from conftest import MEDIAN
from rollout_helpers import FIX_MEDIAN, SOLVE_MEDIAN, SUBMIT, bash, events, live_sandboxes

from swerl.rollout.classify import classify_exception, grade_verdict
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.hostfs import CopyLimitExceeded


def _run(gw: Any, sandbox: Any, settings: RolloutSettings, rid: str) -> Any:
    gw.client.create_rollout(rid, max_attempts=3, metadata={"instance_id": MEDIAN})
    return Runner(gw.client, sandbox, TaskSource("taskpack").task, settings).run(rid)


def _agent_failure(gw: Any, rid: str, out: Any) -> None:
    """Reward 0 recorded once, for attempt 1, and no retry."""
    assert (out.state, out.reward, out.attempt, out.error_kind) == ("failed_agent", 0.0, 1, "agent")
    assert [(e["reward"], e["attempt"]) for e in events(gw, rid, "reward")] == [(0.0, 1)]
    assert [e["state"] for e in events(gw, rid, "status")] == ["running", "failed_agent"]
    assert live_sandboxes() == []


def test_work_tree_past_the_copy_limit_is_the_agents_failure(engines: Any, gateways: Any, sandbox: Any,
                                                             settings: RolloutSettings) -> None:
    """Growing the work tree past the copy limit makes the patch impossible to collect: reward 0, no retry."""
    _, url = engines.scripted([bash("head -c 400000 /dev/urandom > blob.bin", "make a big file"), SUBMIT])
    gw = gateways.start([url])
    small = BwrapSandbox(sandbox.settings.model_copy(update={"copy_limit_bytes": 100_000}))
    out = _run(gw, small, settings, "r-copy")
    _agent_failure(gw, "r-copy", out)
    assert "limit" in (out.error or "").lower()


class TamperFoundGrader(BwrapSandbox):
    """The real grade, with the grader reporting tampering it found (e.g. a forged test log)."""

    def grade(self, task: Any, patch: str) -> Any:
        return super().grade(task, patch).model_copy(update={"tampering": ["conftest.py: rewrites test outcomes"]})


def test_tampering_found_by_the_grader_is_reward_0_and_kept_as_evidence(engines: Any, gateways: Any, sandbox: Any,
                                                                        settings: RolloutSettings) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)  # the fix itself resolves the task ...
    gw = gateways.start([url])
    out = _run(gw, TamperFoundGrader(sandbox.settings), settings, "r-tamper")
    _agent_failure(gw, "r-tamper", out)  # ... but tampering voids it
    data = events(gw, "r-tamper", "reward")[0]["data"]
    assert data["tampering"] == ["conftest.py: rewrites test outcomes"] and data["resolved"] is False

    from swerl.train.loop.hacking import scan_rollout

    found = scan_rollout("r-tamper", None, data)
    assert [(h.kind, h.evidence) for h in found] == [("tampering", "conftest.py: rewrites test outcomes")]


class GradeErrorSandbox(BwrapSandbox):
    """The grader reports an error of a given kind (what the sandbox room's grader sets on its GradeResult)."""

    kind = "agent"
    calls = 0

    def grade(self, task: Any, patch: str) -> Any:
        type(self).calls += 1
        g = super().grade(task, patch)
        if type(self).calls > 1:  # infra failures heal on the retry
            return g
        return g.model_copy(update={"error_kind": self.kind, "error": f"log unparseable ({self.kind})"})


def test_grading_broken_by_the_agents_files_is_reward_0(engines: Any, gateways: Any, sandbox: Any,
                                                         settings: RolloutSettings) -> None:
    _, url = engines.scripted([bash(FIX_MEDIAN), SUBMIT])
    gw = gateways.start([url])
    GradeErrorSandbox.calls = 0
    out = _run(gw, GradeErrorSandbox(sandbox.settings), settings, "r-gradeagent")
    _agent_failure(gw, "r-gradeagent", out)
    assert "unparseable" in (out.error or "")


def test_grading_sandbox_failure_is_infra_retried_once(engines: Any, gateways: Any, sandbox: Any,
                                                       settings: RolloutSettings) -> None:
    _, url = engines.scripted([bash(FIX_MEDIAN), SUBMIT, bash(FIX_MEDIAN), SUBMIT])
    gw = gateways.start([url])

    class InfraGrade(GradeErrorSandbox):
        kind = "infra"

    InfraGrade.calls = 0
    out = _run(gw, InfraGrade(sandbox.settings), settings, "r-gradeinfra")
    assert (out.state, out.reward, out.attempt) == ("succeeded", 1.0, 2)
    assert [(e["reward"], e["attempt"]) for e in events(gw, "r-gradeinfra", "reward")] == [(1.0, 2)]


def test_agent_killing_its_exec_server_is_not_infra(engines: Any, gateways: Any, sandbox: Any,
                                                    settings: RolloutSettings) -> None:
    """The agent kills every process it can see (the exec server included); whatever the sandbox does
    about it, the outcome is never an infra failure the agent chose: it is trained."""
    _, url = engines.scripted([bash("kill -9 -1; kill -9 1", "kill everything"), bash(FIX_MEDIAN), SUBMIT])
    gw = gateways.start([url])
    out = _run(gw, sandbox, settings, "r-kill")
    assert out.state in ("succeeded", "failed_agent") and out.attempt == 1, out
    assert len(events(gw, "r-kill", "reward")) == 1
    assert live_sandboxes() == []


def test_classification_of_agent_faults() -> None:
    from swerl.sandbox import base

    assert classify_exception(CopyLimitExceeded("copy limit exceeded")) == "agent"
    fault = getattr(base, "AgentFault", None)
    if fault is not None:  # the sandbox room's marker for "the agent broke its sandbox"
        assert classify_exception(fault("exec channel: garbage")) == "agent"
        assert issubclass(fault, base.SandboxError)
    assert classify_exception(base.SandboxError("could not start")) == "infra"


def test_grade_verdicts() -> None:
    from swerl.sandbox.schema import GradeResult

    g = GradeResult(instance_id="i", resolved=True, resolution="RESOLVED_FULL", patch_applied=True)
    assert grade_verdict(g) == (None, None)
    assert grade_verdict(g.model_copy(update={"tampering": ["x"]}))[0] == "agent"
    assert grade_verdict(g.model_copy(update={"error_kind": "infra", "error": "no sandbox"})) == ("infra", "no sandbox")
