"""`DirectLedger` (eval and direct probes) follows the gateway's state machine exactly: the runner's
stale-attempt and retry handling is one code path whichever ledger it writes to."""

from __future__ import annotations

import pytest

from swerl.config import RolloutConfig
from swerl.gateway.client import GatewayError
from swerl.gateway.schema import Rollout, RolloutCreated
from swerl.rollout.ledger import DirectLedger
from swerl.rollout.runner import Attempt, AttemptContext, Runner
from swerl.rollout.schema import RolloutSettings


def test_transitions_guard_and_retry_budget() -> None:
    led = DirectLedger("http://127.0.0.1:9/v1", "k")
    r = led.create_rollout("r1", group_id="g", max_attempts=2, metadata={"instance_id": "t"})
    assert (r.state, r.attempt) == ("queued", 1)
    assert led.create_rollout("r1").state == "queued"  # idempotent on the id
    led.set_state("r1", "running", attempt=1)
    with pytest.raises(GatewayError) as bad:
        led.set_state("r1", "queued", attempt=1)  # running -> queued is not in the table
    assert bad.value.status == 409
    led.set_state("r1", "failed_infra", attempt=1)
    assert led.set_state("r1", "queued", attempt=1).attempt == 2  # the retry is a new attempt
    with pytest.raises(GatewayError):
        led.set_state("r1", "running", attempt=1)  # a stale worker of attempt 1
    led.set_state("r1", "running", attempt=2)
    led.set_state("r1", "failed_infra", attempt=2)
    with pytest.raises(GatewayError):
        led.set_state("r1", "queued", attempt=2)  # budget spent
    with pytest.raises(GatewayError) as missing:
        led.rollout("nope")
    assert missing.value.status == 404
    assert (led.proxy_base_url("r1"), led.rotate_token("r1")) == ("http://127.0.0.1:9/v1", "k")


class _Flaky:
    """Fails with infrastructure twice, then succeeds: the runner retries on the in-process ledger."""

    name = "flaky"

    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []

    def run(self, ctx: AttemptContext) -> Attempt:
        self.seen.append((ctx.attempt, ctx.endpoint.base_url))
        if len(self.seen) < 3:
            return Attempt(None, "failed_infra", error="sandbox engine gone")
        return Attempt(None, "succeeded", reward=1.0, resolved=True)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("retries,state", [(2, "succeeded"), (1, "failed_infra")])
def test_runner_retries_infra_on_a_direct_ledger(retries: int, state: str) -> None:
    led = DirectLedger("http://127.0.0.1:9/v1")
    led.create_rollout("r", max_attempts=retries + 1, metadata={"instance_id": "t"})
    h = _Flaky()
    out = Runner(led, None, None, RolloutSettings(rollout=RolloutConfig(max_infra_retries=retries), retry_delay_s=0.0), harness=h).run("r")
    assert out.state == state
    assert [a for a, _ in h.seen] == list(range(1, retries + 2))
    assert all(url == "http://127.0.0.1:9/v1" for _, url in h.seen)
    assert led.rollout("r").state == state
    assert (led.rewards.get(("r", 3)) is not None) == (state == "succeeded")


def test_direct_ledger_hands_out_the_gateways_rollout_model() -> None:
    """One shape of a rollout: the in-process ledger returns `schema.Rollout` (and `RolloutCreated` with the
    token on the creating call), as `GatewayClient` does; a returned rollout is not the ledger's to change."""
    led = DirectLedger("http://127.0.0.1:9/v1", "k")
    first, again = led.create_rollout("r", group_id="g"), led.create_rollout("r")
    assert isinstance(first, RolloutCreated) and (first.token, first.created_now) == ("k", True)
    assert (again.token, again.created_now) == (None, False)
    before = led.rollout("r")
    after = led.set_state("r", "running", attempt=1)
    assert type(before) is Rollout and type(after) is Rollout
    assert (before.state, after.state, led.rollout("r").state) == ("queued", "running", "running")
    assert (after.group_id, after.held_s, after.engine) == ("g", 0.0, None)
