"""A reply rejected as a format error: kept in the history (`keep_rejected_replies`), the rollout stays one
sample; dropped (mini-swe-agent 2.x default), the next call is a branch counted as `reply_dropped`."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import FIX_MEDIAN, SUBMIT, bash
from scripted_engine import ScriptedEngine

from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.train.assembly import assemble
from swerl.train.schema import Event

NO_ACTION = "THOUGHT: I will look at the code first, but I forgot the code block."


class InOrder(ScriptedEngine):
    """Plays the script call by call (the stock scripted engine counts assistant turns in the prompt, which a
    dropped reply would not advance)."""

    calls = 0

    def turn(self, prompt_ids: list[int]) -> int:
        self.calls += 1
        return self.calls - 1


@pytest.mark.parametrize("keep", [True, False])
def test_rejected_reply_kept_or_counted(keep: bool, engines: Any, gateways: Any, sandbox: Any,
                                        settings: RolloutSettings) -> None:
    _, url = engines.scripted([NO_ACTION, bash(FIX_MEDIAN), SUBMIT], cls=InOrder)
    gw = gateways.start([url], continuous_tokens=True, tokenizer=engines.tok)
    gw.client.create_rollout("r-fmt", metadata={"instance_id": MEDIAN})
    out = Runner(gw.client, sandbox, TaskSource("taskpack").task,
                 settings.with_rollout(keep_rejected_replies=keep)).run("r-fmt")
    assert (out.state, out.reward) == ("succeeded", 1.0)
    calls = gw.client.events("r-fmt", kinds=["model_request"], include_json=True)
    assert len(calls) == 3
    second_prompt = calls[1]["request"]["messages"]
    assert any(m["role"] == "assistant" and m["content"] == NO_ACTION for m in second_prompt) is keep
    _, stats = assemble([Event.model_validate(c) for c in calls], tokenizer=engines.tok)
    if keep:
        assert stats.num_samples == 1 and sum(stats.merge_failures.values()) == 0
    else:
        assert stats.num_samples == 2 and stats.merge_failures["reply_dropped"] == 1
