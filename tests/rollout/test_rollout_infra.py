"""Infrastructure failures are classified, retried and never recorded as reward 0; sandboxes always stop."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN, events, free_port, live_sandboxes

from swerl.config import RolloutConfig
from swerl.rollout.agent import run_agent
from swerl.rollout.classify import classify_exception
from swerl.rollout.redact import REDACTED, redact
from swerl.rollout.runner import Runner
from swerl.rollout.schema import HARNESS_TEXT, ModelEndpoint, RolloutOutcome, RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.base import RolloutDeadline, SandboxError
from swerl.sandbox.bwrap import BwrapSandbox


def _declare(gw: Any, rid: str) -> None:
    gw.client.create_rollout(rid, max_attempts=3, metadata={"instance_id": MEDIAN})


def _assert_retried_then_rewarded(gw: Any, rid: str, outcomes: list[RolloutOutcome]) -> None:
    assert [o.state for o in outcomes] == ["failed_infra", "succeeded"]
    assert outcomes[0].error_kind == "infra" and outcomes[0].reward is None
    # the failed attempt left no reward at all; the retry's reward is attempt 2's
    assert [(e["reward"], e["attempt"]) for e in events(gw, rid, "reward")] == [(1.0, 2)]
    assert [(e["state"], e["attempt"]) for e in events(gw, rid, "status")] == [
        ("running", 1), ("failed_infra", 1), ("queued", 2), ("running", 2), ("succeeded", 2)]
    assert live_sandboxes() == []


def test_engine_down_is_infra_retried_and_never_reward_0(engines: Any, gateways: Any, sandbox: Any,
                                                         settings: RolloutSettings) -> None:
    port = free_port()
    gw = gateways.start([f"http://127.0.0.1:{port}"])  # the engine is not up yet
    _declare(gw, "r-down")
    outcomes: list[RolloutOutcome] = []

    def observe(out: RolloutOutcome) -> None:
        outcomes.append(out)
        if out.state == "failed_infra":
            engines.scripted(SOLVE_MEDIAN, port=port)  # the engine comes back before the retry

    final = Runner(gw.client, sandbox, TaskSource("taskpack").task, settings, observer=observe).run("r-down")
    assert final.state == "succeeded" and final.attempt == 2
    _assert_retried_then_rewarded(gw, "r-down", outcomes)
    failed_call = events(gw, "r-down", "model_request")[0]
    assert failed_call["attempt"] == 1 and failed_call["http_status"] == 502 and "unreachable" in failed_call["error"]
    assert "failed_infra" in [e["state"] for e in events(gw, "r-down", "status")]
    reason = gw.client.events("r-down", kinds=["status"])[1]["data"]["reason"]
    assert "BadGatewayError" in reason and "engine unreachable" in reason


class DyingSandbox(BwrapSandbox):
    """The real bwrap backend whose first agent sandbox is torn down under the agent (node lost, OOM kill)."""

    killed = 0

    def exec(self, handle: Any, command: str, timeout: float | None = None, cwd: str | None = None) -> Any:
        if not DyingSandbox.killed:
            DyingSandbox.killed += 1
            self.stop(handle)
        return super().exec(handle, command, timeout, cwd)


def test_sandbox_killed_mid_run_is_infra_and_retried(engines: Any, gateways: Any, sandbox: Any,
                                                     settings: RolloutSettings) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    _declare(gw, "r-killed")
    outcomes: list[RolloutOutcome] = []
    dying = DyingSandbox(sandbox.settings)
    final = Runner(gw.client, dying, TaskSource("taskpack").task, settings, observer=outcomes.append).run("r-killed")
    assert final.state == "succeeded"
    assert "SandboxError" in (outcomes[0].error or "") and "stopped" in (outcomes[0].error or "")
    _assert_retried_then_rewarded(gw, "r-killed", outcomes)


def test_retries_are_bounded_and_the_rollout_ends_failed_infra(gateways: Any, sandbox: Any,
                                                               settings: RolloutSettings) -> None:
    with socket.socket() as held:  # bound, never listening: refused, and no other worker's server can take it
        held.bind(("127.0.0.1", 0))
        gw = gateways.start([f"http://127.0.0.1:{held.getsockname()[1]}"])  # never comes up
        _declare(gw, "r-dead")
        out = Runner(gw.client, sandbox, TaskSource("taskpack").task,
                     settings.with_rollout(max_infra_retries=1)).run("r-dead")
    assert (out.state, out.attempt) == ("failed_infra", 2)
    assert gw.client.rollout("r-dead").state == "failed_infra"
    assert events(gw, "r-dead", "reward") == []


def test_unreachable_gateway_is_infra_and_the_sandbox_is_stopped(median_task: Any, sandbox: Any,
                                                                 tmp_path: Path) -> None:
    # A port held bound but not listening for the whole test: connections are refused, and no other test (or
    # xdist worker) can start a server on it - a free_port() closed again was once taken by another worker's
    # gateway, which answered "invalid token" (AuthenticationError) instead of refusing.
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        ep = ModelEndpoint(base_url=f"http://127.0.0.1:{held.getsockname()[1]}/v1/rollouts/x",
                           api_key="swr_" + "k" * 40, rollout=RolloutConfig(harness=HARNESS_TEXT), timeout_s=5)
        traj = tmp_path / "t.json"
        res = run_agent(median_task, sandbox=sandbox, endpoint=ep, output_path=traj)
    assert res.error_kind == "infra" and not res.submitted and res.n_calls == 1
    assert res.exit_status in ("InternalServerError", "APIConnectionError") and "onnect" in (res.error or "")
    assert live_sandboxes() == []
    text = traj.read_text()
    assert "k" * 40 not in text and json.loads(text)["info"]["swerl"]["error_kind"] == "infra"


class InterruptingSandbox(BwrapSandbox):
    def exec(self, handle: Any, command: str, timeout: float | None = None, cwd: str | None = None) -> Any:
        raise KeyboardInterrupt


def test_ctrl_c_stops_the_sandbox_and_keeps_the_trajectory(engines: Any, median_task: Any, sandbox: Any,
                                                           tmp_path: Path) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)
    traj = tmp_path / "t.json"
    with pytest.raises(KeyboardInterrupt):
        run_agent(median_task, sandbox=InterruptingSandbox(sandbox.settings),
                  endpoint=ModelEndpoint(base_url=url + "/v1", api_key="secret-key-value",
                                         rollout=RolloutConfig(harness=HARNESS_TEXT)), output_path=traj)
    assert live_sandboxes() == []
    saved = json.loads(traj.read_text())
    assert saved["messages"][2]["role"] == "assistant" and "secret-key-value" not in traj.read_text()


@pytest.mark.parametrize(("exc", "kind"), [
    (SandboxError("container vanished"), "infra"),
    (RolloutDeadline("budget used up"), "agent"),
    (RuntimeError("bug in swerl"), "infra"),
])
def test_classification_of_plain_exceptions(exc: BaseException, kind: str) -> None:
    assert classify_exception(exc) == kind


def test_classification_of_model_errors() -> None:
    import litellm

    ctx = litellm.exceptions.ContextWindowExceededError("prompt too long", model="m", llm_provider="openai")
    bad = litellm.exceptions.BadRequestError("prompt of 5000 tokens leaves no room in a 4096 context",
                                             model="m", llm_provider="openai")
    other_400 = litellm.exceptions.BadRequestError("unknown parameter foo", model="m", llm_provider="openai")
    down = litellm.exceptions.APIConnectionError("connection refused", model="m", llm_provider="openai")
    gone = litellm.exceptions.AuthenticationError("401 invalid token", model="m", llm_provider="openai")
    assert [classify_exception(e) for e in (ctx, bad, other_400, down, gone)] == [
        "agent", "agent", "infra", "infra", "infra"]


def test_redaction_by_key_value_and_pattern() -> None:
    secret = "swr_abcdefghijklmnopqrstuvwxyz0123456789"
    data = {"model_kwargs": {"api_key": "k1", "max_tokens": 5, "api_base": "http://g/v1/rollouts/r"},
            "headers": {"Authorization": "Bearer abcdefgh12345678"}, "messages": [
                {"content": f"echo {secret}", "extra": {"prompt_tokens": 3}},
                {"content": "token=Bearer zzzzzzzzzzzz and admin-token-value"}]}
    out = redact(data, ["admin-token-value"])
    assert out["model_kwargs"] == {"api_key": REDACTED, "max_tokens": 5, "api_base": "http://g/v1/rollouts/r"}
    assert out["headers"]["Authorization"] == REDACTED
    assert secret not in json.dumps(out) and "zzzzzzzzzzzz" not in json.dumps(out)
    assert "admin-token-value" not in json.dumps(out) and out["messages"][0]["extra"]["prompt_tokens"] == 3
