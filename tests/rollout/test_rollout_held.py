"""Held time (a paused gateway's hold) kept off the agent's budget from the answers' `x-swerl-held-s`, asking the
gateway only when the budget looks spent (`swerl.rollout.held`, mini-swe-agent's and Terminus-2's deadlines)."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from swerl.rollout.agent import _excluding_held_time
from swerl.rollout.held import HeldTime, reading_held_time
from swerl.rollout.terminus import Budget
from swerl.sandbox.base import RolloutDeadline, SandboxHandle


def _handle(remaining_s: float) -> SandboxHandle:
    return SandboxHandle(id="sb", task=None, backend="test", host_dir=Path("/nonexistent"),  # type: ignore[arg-type]
                         deadline=time.monotonic() + remaining_s)


class _Gateway:
    """`ask`: the rollout's held seconds as the gateway would answer a GET, counted."""

    def __init__(self, held_s: float) -> None:
        self.held_s, self.gets = held_s, 0

    def __call__(self) -> float:
        self.gets += 1
        return self.held_s


def test_reported_held_time_moves_the_deadline_once_and_never_asks() -> None:
    gw = _Gateway(7.0)
    held, h = HeldTime(5.0, ask=gw), _handle(100.0)  # 5 s held by an earlier attempt: not this attempt's time
    d0 = h.deadline
    assert held.extend(h) == 0.0 and h.deadline == d0
    held.observe({"x-swerl-held-s": "12.500", "content-type": "application/json"})
    held.observe({"X-Swerl-Held-S": "11.0"})  # an older answer: held time only grows
    assert held.extend(h) == pytest.approx(7.5) and h.deadline == pytest.approx(d0 + 7.5)
    assert held.extend(h) == 0.0 and h.deadline == pytest.approx(d0 + 7.5)  # charged once
    for junk in (None, {}, {"x-swerl-held-s": "nan"}, {"x-swerl-held-s": "-3"}, {"x-swerl-held-s": "x"}):
        held.observe(junk)
    assert held() == 12.5 and gw.gets == 0


def test_a_spent_budget_asks_the_gateway_before_it_ends() -> None:
    gw = _Gateway(30.0)  # a hold in progress (or answers whose headers were not seen): only the gateway knows
    held, h = HeldTime(0.0, ask=gw), _handle(-1.0)
    assert held.extend(h) == 30.0 and h.remaining_s > 28 and gw.gets == 1
    gw.held_s = 30.0
    h.deadline = time.monotonic() - 1
    held.extend(h)
    assert h.remaining_s < 0 and gw.gets == 2  # asked, nothing new: the budget is spent

    asked = []

    def down() -> float:
        asked.append(1)
        raise ConnectionError("gateway restarting")

    quiet = HeldTime(0.0, ask=down)
    assert quiet.extend(_handle(-1.0)) == 0.0 and len(asked) == 1  # no extension now, no exception


def test_a_plain_callable_is_read_once_then_only_when_spent() -> None:
    gw = _Gateway(4.0)
    held = HeldTime.of(gw)
    assert held is not None and (held(), held.charged, gw.gets) == (4.0, 4.0, 1)
    h = _handle(50.0)
    gw.held_s = 9.0
    for _ in range(5):
        held.extend(h)
    assert gw.gets == 1 and HeldTime.of(held) is held and HeldTime.of(None) is None


def test_mini_swe_agent_commands_read_the_headers_of_the_models_answers() -> None:
    """The model's `_query` (one litellm call) reports each answer's header; each command extends first."""
    gw = _Gateway(0.0)
    held, h = HeldTime(0.0, ask=gw), _handle(10.0)
    answers = iter([{"x-swerl-held-s": "0.000"}, {"x-swerl-held-s": "20.000"}])
    query = reading_held_time(lambda *_a, **_k: SimpleNamespace(_response_headers=next(answers)), held)
    ran: list[Any] = []
    execute = _excluding_held_time(lambda cmd: ran.append((cmd, h.remaining_s)) or {"output": ""}, h, held)
    query([{"role": "user", "content": "x"}])
    execute("ls")
    query([{"role": "user", "content": "y"}])  # held 20 s by a pause: longer than the whole budget
    execute("pytest")
    assert [c for c, _ in ran] == ["ls", "pytest"] and ran[1][1] > 25 and gw.gets == 0


def test_terminus_budget_takes_the_held_time_the_worker_forwards() -> None:
    gw = _Gateway(0.0)
    h = _handle(2.0)
    budget = Budget(h, HeldTime(0.0, ask=gw))
    budget.report({"op": "exec", "command": "ls", "held_s": "60.000"})
    budget.check()
    assert h.remaining_s > 55 and gw.gets == 0
    budget.report({"op": "exec", "command": "ls"})  # a worker that saw no header: nothing reported
    h.deadline = time.monotonic() - 1
    with pytest.raises(RolloutDeadline):
        budget.check()
    assert gw.gets == 1  # asked once before ending the run
