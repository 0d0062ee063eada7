"""The controller: declared rollouts reconciled against the real gateway, with real rollouts in threads."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
from conftest import MEDIAN
from rollout_helpers import SOLVE_MEDIAN, events

from swerl.rollout.controller import Controller, RateLimiter, declare, plan
from swerl.rollout.launchers import ThreadLauncher
from swerl.rollout.runner import Runner
from swerl.rollout.schema import RolloutSettings
from swerl.rollout.tasks import TaskSource


class Counting:
    """Wraps the real worker: counts concurrent attempts, can crash or hang chosen attempts."""

    def __init__(self, runner: Runner, crash: set[int] = frozenset(), hang: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.runner, self.crash, self.hang = runner, crash, hang
        self.now = self.peak = 0
        self.lock = threading.Lock()
        self.release = threading.Event()

    def __call__(self, rid: str, attempt: int) -> object:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            if attempt in self.crash:
                raise RuntimeError("worker crashed (simulated)")
            if attempt in self.hang:
                self.release.wait(60)
                return None
            return self.runner.run_attempt(rid, attempt=attempt)
        finally:
            with self.lock:
                self.now -= 1


def _setup(engines: Any, gateways: Any, sandbox: Any, settings: RolloutSettings, n: int) -> tuple[Any, list[str]]:
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    ids = declare(gw.client, plan([MEDIAN], n, prefix="step0/", max_attempts=3))
    return gw, ids


def test_declared_rollouts_run_to_completion_within_concurrency(engines: Any, gateways: Any, sandbox: Any,
                                                                settings: RolloutSettings) -> None:
    gw, ids = _setup(engines, gateways, sandbox, settings, n=3)
    assert len(set(ids)) == 3 and all(i.startswith("step0-swerl-taskpack__calc.median_even") for i in ids)
    assert declare(gw.client, plan([MEDIAN], 3, prefix="step0/")) == ids  # declaring again changes nothing
    work = Counting(Runner(gw.client, sandbox, TaskSource("taskpack").task, settings))
    ctl = Controller(gw.client, ThreadLauncher(work), concurrency=2, poll_s=0.1, deadline_s=120)
    rep = ctl.serve(until_idle=True, max_passes=2000)
    assert rep.idle
    rollouts = {r.id: r for r in gw.client.rollouts()}
    assert {r.state for r in rollouts.values()} == {"succeeded"}
    assert len({r.group_id for r in rollouts.values()}) == 1  # one group per task
    assert all(events(gw, rid, "reward")[0]["reward"] == 1.0 for rid in ids)
    assert work.peak == 2  # two at once, never three


def test_restarted_controller_picks_up_claims_whose_lease_expired(engines: Any, gateways: Any, sandbox: Any,
                                                                  settings: RolloutSettings) -> None:
    gw, ids = _setup(engines, gateways, sandbox, settings, n=3)
    tokens = {rid: gw.client.rotate_token(rid) for rid in ids}

    class Dies:
        """A launcher whose controller dies right after claiming: workers never start."""

        def launch(self, rid: str, attempt: int) -> None: ...
        def active(self) -> dict[str, int]: return {}
        def reap(self) -> list: return []
        def cancel(self, rid: str) -> None: ...
        def close(self) -> None: ...

    first = Controller(gw.client, Dies(), concurrency=2, deadline_s=30, grace_s=5)
    assert len(first.reconcile().launched) == 2  # claimed two, then "killed"
    abandoned = [r.id for r in gw.client.rollouts(["running"])]
    assert len(abandoned) == 2

    # a new controller, 60 s later: the two claims are past deadline + grace, nobody is running them
    later = lambda: time.time() + 60  # noqa: E731
    runner = Runner(gw.client, sandbox, TaskSource("taskpack").task, settings)
    second = Controller(gw.client, ThreadLauncher(lambda rid, att: runner.run_attempt(rid, attempt=att)),
                        concurrency=2, deadline_s=30, grace_s=5, poll_s=0.1, clock=later)
    rep = second.serve(until_idle=True, max_passes=2000)
    assert rep.idle
    for rid in ids:
        r = gw.client.rollout(rid)
        assert r.state == "succeeded"
        assert r.attempt == (2 if rid in abandoned else 1)
        assert [e["attempt"] for e in events(gw, rid, "reward")] == [r.attempt]
    reasons = [e["data"].get("reason", "") for e in events(gw, abandoned[0], "status")]
    assert any("lease expired" in x for x in reasons)
    # the abandoned attempt's token was rotated away: a zombie worker of it could not call the model
    r = httpx.post(gw.client.proxy_base_url(abandoned[0]) + "/chat/completions",
                   headers={"Authorization": f"Bearer {tokens[abandoned[0]]}"},
                   json={"messages": [{"role": "user", "content": "hi"}]})
    assert r.status_code in (401, 409)


def test_deadline_and_crash_are_infra_failures_and_retried(engines: Any, gateways: Any, sandbox: Any,
                                                           settings: RolloutSettings) -> None:
    gw, ids = _setup(engines, gateways, sandbox, settings, n=2)
    hang_id, crash_id = ids
    runner = Runner(gw.client, sandbox, TaskSource("taskpack").task, settings)
    hang = Counting(runner, hang={1})
    crash = Counting(runner, crash={1})
    now = [time.time()]
    ctl = Controller(gw.client, ThreadLauncher(lambda rid, att: (hang if rid == hang_id else crash)(rid, att)),
                     concurrency=2, deadline_s=100, grace_s=10, poll_s=0.1, clock=lambda: now[0])
    try:
        assert sorted(ctl.reconcile().launched) == sorted(ids)
        time.sleep(0.3)  # the crashing worker has crashed; the other one hangs
        now[0] += 200  # past deadline + grace of the hanging attempt
        rep = ctl.reconcile()
        assert (rep.crashed, rep.expired) == ([crash_id], [hang_id])
        assert sorted(rep.requeued) == sorted(rep.launched) == sorted(ids)  # both retried at once
        rep = ctl.serve(until_idle=True, max_passes=2000)
    finally:
        hang.release.set()
    assert rep.idle
    for rid, why in ((hang_id, "deadline exceeded"), (crash_id, "worker exited without recording")):
        r = gw.client.rollout(rid)
        assert (r.state, r.attempt) == ("succeeded", 2)
        assert [(e["reward"], e["attempt"]) for e in events(gw, rid, "reward")] == [(1.0, 2)]  # no reward 0
        assert any(why in (e["data"] or {}).get("reason", "") for e in events(gw, rid, "status"))


def test_rate_limiter_spaces_launches() -> None:
    t = [0.0]
    lim = RateLimiter(rate=2.0, burst=2, clock=lambda: t[0])
    assert [lim.take() for _ in range(3)] == [True, True, False]  # burst of 2, then empty
    t[0] += 0.5
    assert [lim.take(), lim.take()] == [True, False]  # one token per 0.5 s
    assert all(RateLimiter(0, 1).take() for _ in range(100))  # 0 = unlimited


def test_plan_makes_valid_unique_gateway_ids() -> None:
    long = "org__" + "x" * 200
    reqs = plan([MEDIAN, long, "weird id/with spaces"], 2, prefix="s1/")
    ids = [r.rollout_id for r in reqs]
    assert len(set(ids)) == 6 and all(len(i) <= 128 for i in ids)
    import re

    from swerl.gateway.schema import ID_PATTERN

    assert all(re.match(ID_PATTERN, i) for i in ids)
    assert reqs[0].group_id == reqs[1].group_id != reqs[2].group_id
    assert reqs[2].instance_id == long  # the task itself is kept exactly, only the id is shortened
