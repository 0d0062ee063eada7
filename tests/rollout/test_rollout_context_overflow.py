"""`rollout.context_overflow` end to end (docs/algorithms.md sec. 13): mini-swe-agent -> real gateway -> an engine
that refuses the third call as vLLM does when a prompt outgrows the context, bwrap sandbox, grading.

The agent fixes the bug in its first action and never submits; the overflow ends the run. `fail` trains it as an
agent failure (reward 0); `truncate` grades the work tree as it stood after the last complete turn (the fix pays);
both mark the reward event so the trainer can mask it (`mask`)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import FIX_MEDIAN, bash, events, live_sandboxes
from scripted_engine import ScriptedEngine

from swerl.gateway.engines.openai_server import EngineError, Generation, Sampling
from swerl.rollout.classify import is_context_overflow
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource


class OverflowingEngine(ScriptedEngine):
    """Answers the script, but refuses every call after two assistant turns with vLLM's 400 wording."""

    def generate(self, prompt_ids: list[int], params: Sampling) -> Generation:
        if self.turn(prompt_ids) >= 2:
            raise EngineError(400, f"This model's maximum context length is {len(prompt_ids)} tokens. However, "
                                   f"your request has {len(prompt_ids) + 1} input tokens.")
        return super().generate(prompt_ids, params)


@pytest.mark.parametrize("mode", ["fail", "truncate"])
def test_context_overflow_is_trained_as_the_recipe_says(mode: str, engines: Any, gateways: Any, sandbox: Any,
                                                        settings: RolloutSettings) -> None:
    _, url = engines.scripted([bash(FIX_MEDIAN, "fix it"), bash("ls"), bash("ls")], cls=OverflowingEngine)
    gw = gateways.start([url])
    rid = f"r-overflow-{mode}"
    gw.client.create_rollout(rid, group_id="g", metadata={"instance_id": MEDIAN})
    runner = Runner(gw.client, sandbox, TaskSource("taskpack").task,
                    settings.with_rollout(context_overflow=mode))
    out = runner.run(rid)

    assert out.agent is not None and out.agent.context_overflow
    data = events(gw, rid, "reward")[0]["data"]
    assert data["context_overflow"] is True  # the trainer's `mask` reads this
    if mode == "fail":
        assert (out.state, out.reward, out.error_kind) == ("failed_agent", 0.0, "agent")
        assert out.grade is None
    else:  # the fix made in the first turn is graded as a submission
        assert (out.state, out.reward, out.resolved) == ("succeeded", 1.0, True)
        assert out.agent.exit_status == "ContextOverflow" and out.agent.files == ["calc/stats.py"]
    calls = events(gw, rid, "model_request")
    assert len(calls) == 3 and calls[-1]["error"] is not None  # the refused call is recorded, never trained on
    assert live_sandboxes() == []


def test_a_refused_call_for_other_reasons_is_not_an_overflow() -> None:
    class Refused(Exception):
        status_code = 400

    assert is_context_overflow(Refused("maximum context length is 4096 tokens"))
    assert not is_context_overflow(Refused("temperature: must be a number in [0, 2]"))
    assert not is_context_overflow(RuntimeError("maximum context length"))  # no status: not the engine's answer
