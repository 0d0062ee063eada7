"""A training update is not the agent's time: a pause longer than both the harness's configured call timeout and
the rollout's whole time budget leaves no trace on the rollout (no resend, no timeout, no reward 0)."""

from __future__ import annotations

import threading
import time
from typing import Any

from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN, events, live_sandboxes

from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.bwrap import BwrapSandbox

BUDGET_S = 15.0  # the rollout's whole time budget (sandbox.rollout_timeout_s)
PAUSE_S = 20.0  # the "update": longer than the budget and than the configured call timeout
CALL_TIMEOUT_S = 5.0


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
    out = runner.run("r-pause")
    t.join()
    assert paused.is_set()
    assert (out.state, out.reward, out.attempt) == ("succeeded", 1.0, 1), out.error
    calls = events(gw, "r-pause", "model_request")
    assert len(calls) == len(SOLVE_MEDIAN) and all(c["error"] is None for c in calls)  # no resend, no timeout
    assert [c["policy_version"] for c in calls][-1] == 1  # the held call was served after the update
    r = gw.client.rollout("r-pause")
    assert r.held_s >= PAUSE_S - 2  # the gateway measured the hold the budget excluded
    assert live_sandboxes() == []
