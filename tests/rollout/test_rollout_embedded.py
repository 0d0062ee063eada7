"""The real tiny model (embedded engine) through the gateway and mini-swe-agent for a few steps.

A random-init model solves nothing: its answers are not in the action format, so the
run ends as mini-swe-agent's RepeatedFormatError - an agent failure, reward 0, trained
on - and every call is recorded with exactly the tokens and logprobs the model produced.
"""

from __future__ import annotations

from typing import Any

from conftest import MEDIAN
from rollout_helpers import events, live_sandboxes

from swerl.gateway.engines.embedded import EmbeddedEngine
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource


def test_tiny_model_format_errors_are_agent_failures_with_exact_tokens(
        engines: Any, gateways: Any, sandbox: Any, settings: RolloutSettings, tiny_tok: Any) -> None:
    import torch

    from swerl.models import build_tiny_model

    torch.set_num_threads(1)
    eng = EmbeddedEngine(build_tiny_model(tiny_tok), tiny_tok, model_name="tiny")
    gw = gateways.start([engines.serve(eng)])
    gw.client.create_rollout("r-tiny", metadata={"instance_id": MEDIAN})
    s = settings.with_rollout(max_tokens=16).model_copy(update={"model": "tiny", "model_kwargs": {"seed": 7}})
    out = Runner(gw.client, sandbox, TaskSource("taskpack").task, s).run("r-tiny")

    assert out.agent is not None
    assert (out.state, out.reward, out.error_kind) == ("failed_agent", 0.0, "agent")
    assert out.agent.exit_status == "RepeatedFormatError" and out.agent.n_calls == 3
    assert [e["reward"] for e in events(gw, "r-tiny", "reward")] == [0.0]
    calls = events(gw, "r-tiny", "model_request")
    produced = list(eng.history)
    assert len(calls) == len(produced) == 3
    for ev, p in zip(calls, produced, strict=True):
        assert ev["prompt_ids"] == p["prompt_ids"]
        assert ev["response_ids"] == p["token_ids"] and 0 < len(p["token_ids"]) <= 16
        assert ev["response_logprobs"] == p["logprobs"]  # bit-exact
    # each later prompt re-renders the conversation: the format-error feedback is in it, after the reply
    assert len(calls[1]["prompt_ids"]) > len(calls[0]["prompt_ids"]) + len(calls[0]["response_ids"])
    feedback = tiny_tok.decode(calls[1]["prompt_ids"]).rsplit("<|im_start|>user", 1)[1]
    assert "Format error" in feedback or "output token limit" in feedback  # mini-swe-agent's own template
    assert live_sandboxes() == []
