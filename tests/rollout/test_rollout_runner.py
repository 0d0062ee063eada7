"""End to end on a bundled task: mini-swe-agent -> real gateway -> scripted engine, bwrap sandbox, host patch,
fresh-sandbox grading, reward written by the runner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import MEDIAN
from rollout_helpers import (
    ADMIN,
    CHEAT_MEDIAN,
    FIX_MEDIAN,
    SOLVE_MEDIAN,
    SUBMIT,
    WRONG_FIX_MEDIAN,
    HermesScriptedEngine,
    bash,
    events,
    live_sandboxes,
    tool_call,
)

from swerl.rollout.runner import Runner
from swerl.rollout.schema import HARNESS_TOOLCALL, RolloutSettings
from swerl.rollout.tasks import TaskSource


def _runner(gw: Any, sandbox: Any, settings: RolloutSettings) -> Runner:
    return Runner(gw.client, sandbox, TaskSource("taskpack").task, settings)


def _declare(gw: Any, rid: str, instance: str = MEDIAN, max_attempts: int = 3) -> str:
    created = gw.client.create_rollout(rid, group_id="g-" + instance, max_attempts=max_attempts,
                                       metadata={"instance_id": instance})
    return created.token


def test_scripted_fix_through_the_gateway_earns_reward_1(engines: Any, gateways: Any, sandbox: Any,
                                                         settings: RolloutSettings) -> None:
    eng, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    creation_token = _declare(gw, "r-fix")
    out = _runner(gw, sandbox, settings).run("r-fix")

    assert (out.state, out.reward, out.resolved, out.attempt) == ("succeeded", 1.0, True, 1)
    assert out.agent is not None and out.agent.submitted and out.agent.n_calls == 4
    # the patch was computed on the host from the work tree, and it is exactly the fix
    assert "-    return (ordered[mid] + ordered[mid + 1]) / 2" in out.agent.patch
    assert "+    return (ordered[mid - 1] + ordered[mid]) / 2" in out.agent.patch
    assert out.agent.files == ["calc/stats.py"] and out.agent.dropped == []
    # graded in a fresh sandbox by the harness's parser
    assert out.grade is not None and out.grade.fail_to_pass.success == ["tests/test_stats.py::test_median_even"]
    assert out.grade.parser.startswith("swesmith:")

    r = gw.client.rollout("r-fix")
    assert (r.state, r.attempt) == ("succeeded", 1)
    rewards = events(gw, "r-fix", "reward")
    assert [(e["reward"], e["attempt"]) for e in rewards] == [(1.0, 1)]
    assert rewards[0]["data"]["resolved"] is True and rewards[0]["data"]["exit_status"] == "Submitted"
    statuses = [e["state"] for e in events(gw, "r-fix", "status")]
    assert statuses == ["running", "succeeded"]

    # what the gateway recorded is exactly what the engine produced, call by call
    calls = events(gw, "r-fix", "model_request", include_json=True)
    produced = list(eng.history)
    assert len(calls) == len(produced) == 4
    for ev, p in zip(calls, produced, strict=True):
        assert ev["prompt_ids"] == p["prompt_ids"]
        assert ev["response_ids"] == p["token_ids"]
        assert ev["response_logprobs"] == p["logprobs"]
        assert ev["http_status"] == 200 and ev["error"] is None
    # and the response tokens are the script's text in the tiny tokenizer, plus the end-of-turn token
    assert calls[1]["response_ids"] == [*engines.tok.encode(SOLVE_MEDIAN[1], add_special_tokens=False),
                                        engines.tok.eos_token_id]
    # the submission instructions tell the agent that git is disabled and changes are collected
    first_prompt = engines.tok.decode(calls[0]["prompt_ids"])
    assert "git is disabled" in first_prompt and "collected automatically" in first_prompt
    assert "git diff" not in first_prompt.split("## Submission")[1]

    # the trajectory is mini-swe-agent's format, and carries no token of any kind
    traj_path = settings.trajectories_dir / "r-fix.attempt1.traj.json"  # type: ignore[operator]
    text = traj_path.read_text()
    traj = json.loads(text)
    assert traj["trajectory_format"] == "mini-swe-agent-1.1" and traj["info"]["exit_status"] == "Submitted"
    assert traj["info"]["config"]["model"]["model_kwargs"]["api_key"] == "[REDACTED]"
    assert traj["info"]["swerl"]["submitted"] is True
    assert creation_token not in text and ADMIN not in text and "swr_" not in text
    assert live_sandboxes() == []


def test_wrong_fix_is_a_succeeded_rollout_with_reward_0(engines: Any, gateways: Any, sandbox: Any,
                                                        settings: RolloutSettings) -> None:
    _, url = engines.scripted(WRONG_FIX_MEDIAN)
    gw = gateways.start([url])
    _declare(gw, "r-wrong")
    out = _runner(gw, sandbox, settings).run("r-wrong")
    assert (out.state, out.reward, out.resolved) == ("succeeded", 0.0, False)
    assert out.grade is not None and out.grade.patch_applied
    assert out.grade.fail_to_pass.failure == ["tests/test_stats.py::test_median_even"]
    assert [e["reward"] for e in events(gw, "r-wrong", "reward")] == [0.0]
    assert gw.client.rollout("r-wrong").state == "succeeded"


def test_edited_tests_are_dropped_from_the_patch_and_do_not_pay(engines: Any, gateways: Any, sandbox: Any,
                                                                settings: RolloutSettings) -> None:
    script = [bash(CHEAT_MEDIAN, "make the test agree"), bash("python -m pytest -q tests/test_stats.py | tail -1"),
              SUBMIT]
    _, url = engines.scripted(script)
    gw = gateways.start([url])
    _declare(gw, "r-cheat")
    out = _runner(gw, sandbox, settings).run("r-cheat")
    assert out.agent is not None
    assert [d.path for d in out.agent.dropped] == ["tests/test_stats.py"]
    assert out.agent.patch == ""  # nothing but the test edit: nothing left to grade
    assert (out.state, out.reward) == ("succeeded", 0.0)
    data = events(gw, "r-cheat", "reward")[0]["data"]
    assert data["dropped"][0]["path"] == "tests/test_stats.py" and data["resolved"] is False


def test_step_limit_without_submission_is_an_agent_failure(engines: Any, gateways: Any, sandbox: Any,
                                                           settings: RolloutSettings) -> None:
    _, url = engines.scripted([bash(FIX_MEDIAN), bash("ls")])  # fixes the bug but never submits
    gw = gateways.start([url])
    _declare(gw, "r-limit")
    out = _runner(gw, sandbox, settings.with_rollout(max_steps=2)).run("r-limit")
    assert (out.state, out.reward, out.error_kind) == ("failed_agent", 0.0, "agent")
    assert out.agent is not None and out.agent.exit_status == "LimitsExceeded" and out.grade is None
    assert gw.client.rollout("r-limit").state == "failed_agent"
    assert [e["reward"] for e in events(gw, "r-limit", "reward")] == [0.0]


def test_tool_call_harness_with_an_engine_that_returns_tool_calls(engines: Any, gateways: Any, sandbox: Any,
                                                                  settings: RolloutSettings, tmp_path: Path) -> None:
    script = [tool_call(FIX_MEDIAN, "Fix the average."), tool_call("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
                                                                   "Submit.")]
    eng, url = engines.scripted(script, cls=HermesScriptedEngine)
    gw = gateways.start([url])
    _declare(gw, "r-tools")
    out = _runner(gw, sandbox, settings.with_rollout(harness=HARNESS_TOOLCALL)).run("r-tools")
    assert (out.state, out.reward) == ("succeeded", 1.0)
    calls = events(gw, "r-tools", "model_request", include_json=True)
    assert len(calls) == 2
    assert calls[0]["request"]["tools"][0]["function"]["name"] == "bash"  # mini-swe-agent's BASH_TOOL
    assert calls[1]["request"]["messages"][-1]["role"] == "tool"  # the observation went back as a tool message
    assert [c["response_ids"] for c in calls] == [h["token_ids"] for h in eng.history]
