"""A training update is not the agent's time: a pause longer than both the harness's configured call timeout and
the rollout's whole time budget leaves no trace on the rollout (no resend, no timeout, no reward 0)."""

from __future__ import annotations

import threading
import time
from typing import Any

from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN, events, live_sandboxes

from swerl.gateway.client import GatewayClient
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.bwrap import BwrapSandbox

BUDGET_S = 15.0  # the rollout's whole time budget (sandbox.rollout_timeout_s)
PAUSE_S = 20.0  # the "update": longer than the budget and than the configured call timeout
CALL_TIMEOUT_S = 5.0


def _rollout_gets(client: GatewayClient, rid: str) -> list[str]:
    """Every GET /rollouts/{rid} the client sends from now on (its admin requests, counted on the wire)."""
    gets: list[str] = []
    path = f"/rollouts/{rid}"
    client._http.event_hooks["request"].append(
        lambda req: gets.append(req.url.path) if req.method == "GET" and req.url.path == path else None)
    return gets


def test_an_update_longer_than_the_budget_and_the_client_timeout_costs_the_rollout_nothing(
        engines: Any, gateways: Any, sandbox: Any, settings: RolloutSettings) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    gw.client.create_rollout("r-pause", max_attempts=3, metadata={"instance_id": MEDIAN})
    budgeted = BwrapSandbox(sandbox.settings.model_copy(update={"rollout_timeout_s": BUDGET_S}))
    runner = Runner(gw.client, budgeted, TaskSource("taskpack").task,
                    settings.model_copy(update={"call_timeout_s": CALL_TIMEOUT_S}))
    paused = threading.Event()

    def trainer_update() -> None:
        """After the agent's first call, pause (drain + hold) for longer than everything, then resume."""
        while not events(gw, "r-pause", "model_request"):
            time.sleep(0.05)
        gw.client.pause()
        paused.set()
        time.sleep(PAUSE_S)
        gw.client.resume(1)

    t = threading.Thread(target=trainer_update, daemon=True)
    t.start()
    gets = _rollout_gets(gw.client, "r-pause")
    out = runner.run("r-pause")
    asked = len(gets)
    t.join()
    assert paused.is_set()
    assert (out.state, out.reward, out.attempt) == ("succeeded", 1.0, 1), out.error
    calls = events(gw, "r-pause", "model_request")
    assert len(calls) == len(SOLVE_MEDIAN) and all(c["error"] is None for c in calls)  # no resend, no timeout
    assert [c["policy_version"] for c in calls][-1] == 1  # the held call was served after the update
    r = gw.client.rollout("r-pause")
    assert r.held_s >= PAUSE_S - 2  # the gateway measured the hold the budget excluded
    assert asked == 2  # the claim and the check before the reward: the hold came with the held call's answer
    assert live_sandboxes() == []


def test_agent_commands_send_the_gateway_no_requests_of_their_own(
        engines: Any, gateways: Any, sandbox: Any, settings: RolloutSettings) -> None:
    """Held time comes with the model's answers (`x-swerl-held-s`): an attempt asks the gateway for its rollout
    twice (claim, the check before the reward) however many commands the agent runs - no GET per command."""
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    gw.client.create_rollout("r-count", metadata={"instance_id": MEDIAN})
    runner = Runner(gw.client, sandbox, TaskSource("taskpack").task, settings)
    runner.client_timeout_s  # noqa: B018 - the gateway's status, asked once per runner, not per attempt
    sent: list[tuple[str, str]] = []
    gw.client._http.event_hooks["request"].append(lambda req: sent.append((req.method, req.url.path)))
    out = runner.run("r-count")
    attempt = list(sent)  # the attempt's requests, not this test's below
    assert (out.state, out.reward) == ("succeeded", 1.0), out.error
    commands = len(SOLVE_MEDIAN)  # one command per model answer, the submission included
    assert len(events(gw, "r-count", "model_request")) == commands == out.agent.n_calls
    assert [m for m, _ in attempt].count("GET") == 2, attempt
    assert len(attempt) == 6, attempt  # + token, running, reward, succeeded: nothing scales with the commands
