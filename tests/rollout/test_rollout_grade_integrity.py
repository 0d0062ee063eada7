"""Reward integrity through the RL path: mini-swe-agent -> gateway -> scripted engine -> bwrap -> host patch -> grader.

The scripted model plants in-process forging (imported code rewrites pytest's reports, class 3)
and a shadowing module (class 2) without fixing the bug, then submits: the grader flags the
tampering, the runner writes reward 0, and the reward event keeps the reasons for the
trainer's hacking counters. The same patch on the grader with its defences off would
have paid 1.0 (the scripted agent really hacks).
"""

from __future__ import annotations

from typing import Any

from conftest import MEDIAN
from rollout_helpers import SUBMIT, bash, events

from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox import audit_grading as ag
from swerl.sandbox.grade import grade


def test_forged_reports_earn_no_reward_through_the_runner(engines: Any, gateways: Any, sandbox: Any,
                                                          settings: RolloutSettings) -> None:
    task = TaskSource("taskpack").task(MEDIAN)
    target = ag.Target("calc/__init__.py", tuple(task.FAIL_TO_PASS + task.PASS_TO_PASS))
    script = [bash(ag.setup_command("report-rewrite", target), "make pytest agree"),
              bash(ag.setup_command("shadow-module", target), "and print passes at exit"), SUBMIT]
    _, url = engines.scripted(script)
    gw = gateways.start([url])
    gw.client.create_rollout("r-forge", group_id="g", max_attempts=1, metadata={"instance_id": MEDIAN})
    long_commands = settings.with_rollout(max_tokens=4096)  # the planted files are long
    out = Runner(gw.client, sandbox, TaskSource("taskpack").task, long_commands).run("r-forge")

    assert out.agent is not None, out
    assert out.reward == 0.0 and out.resolved is False and out.state != "failed_infra", (out.agent.exit_status, out.error)
    assert out.grade is not None and out.grade.tampering, (out.state, out.agent.exit_status, out.error, out.agent.patch[:300])
    assert any("_pytest" in t or "TestReport" in t for t in out.grade.tampering)
    assert [d.path for d in out.grade.dropped] == ["iniconfig.py"]
    data = events(gw, "r-forge", "reward")[0]["data"]
    assert data["resolved"] is False and data["tampering"] == out.grade.tampering
    # the control: the undefended grader would have paid for this patch
    assert out.agent is not None and grade(sandbox, task, out.agent.patch, defences=False).resolved
