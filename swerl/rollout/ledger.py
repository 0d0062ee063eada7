"""Where a rollout's state, token and reward live: a recording gateway, or this process.

`GatewayClient` is a `Ledger` (calls recorded, states shared with the controller); `DirectLedger`
keeps the same transition table, attempt guard and retry budget in memory for runs that record
nothing (eval against an endpoint, `probe --direct`). One attempt state machine either way, and one
shape of a rollout: both hand out the gateway's wire model (`swerl.gateway.schema.Rollout`).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

from swerl.gateway.client import GatewayError
from swerl.gateway.schema import Rollout, RolloutCreated
from swerl.gateway.states import TransitionError, transition


class Ledger(Protocol):
    """The part of `GatewayClient` the runner and the planners use."""

    def create_rollout(self, rollout_id: str | None = None, group_id: str | None = None,
                       max_attempts: int | None = None, metadata: dict[str, Any] | None = None) -> RolloutCreated: ...

    def rollout(self, rollout_id: str) -> Rollout: ...

    def set_state(self, rollout_id: str, state: str, attempt: int | None = None,
                  reason: str | None = None) -> Rollout: ...

    def rotate_token(self, rollout_id: str) -> str: ...

    def add_reward(self, rollout_id: str, reward: float, attempt: int | None = None,
                   data: dict[str, Any] | None = None) -> dict[str, Any]: ...

    def proxy_base_url(self, rollout_id: str) -> str: ...

    def status(self) -> dict[str, Any]: ...


class DirectLedger:
    """Rollouts kept in this process; every harness call goes straight to `base_url` with `api_key`. Errors are
    the gateway's (`GatewayError` 404/409), so the runner's stale-attempt handling is the same code."""

    def __init__(self, base_url: str, api_key: str = "none") -> None:
        self.base_url, self.api_key = base_url, api_key
        self._rollouts: dict[str, Rollout] = {}
        self.rewards: dict[tuple[str, int], tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def create_rollout(self, rollout_id: str | None = None, group_id: str | None = None,
                       max_attempts: int | None = None, metadata: dict[str, Any] | None = None) -> RolloutCreated:
        """As the gateway's: `token` (the endpoint's key) and `created_now` only on the call that created it."""
        if not rollout_id:
            raise ValueError("DirectLedger rollouts need an id")
        with self._lock:
            created = rollout_id not in self._rollouts
            if created:
                now = time.time()
                self._rollouts[rollout_id] = Rollout(
                    id=rollout_id, group_id=group_id or rollout_id, state="queued", attempt=1, engine=None,
                    max_attempts=max_attempts or 3, metadata=dict(metadata or {}), created=now, updated=now)
            r = self._rollouts[rollout_id]
        return RolloutCreated(**r.model_dump(), token=self.api_key if created else None, created_now=created)

    def rollout(self, rollout_id: str) -> Rollout:
        with self._lock:
            return self._get(rollout_id)

    def set_state(self, rollout_id: str, state: str, attempt: int | None = None,
                  reason: str | None = None) -> Rollout:
        """Rollouts are immutable models: a transition replaces the stored one."""
        with self._lock:
            r = self._get(rollout_id)
            try:
                out = transition(r.state, r.attempt, r.max_attempts, state, attempt)
            except TransitionError as exc:
                raise GatewayError(409, str(exc)) from exc
            r = self._rollouts[rollout_id] = r.model_copy(
                update={"state": out.state, "attempt": out.attempt, "updated": time.time()})
            return r

    def rotate_token(self, rollout_id: str) -> str:
        self.rollout(rollout_id)
        return self.api_key

    def add_reward(self, rollout_id: str, reward: float, attempt: int | None = None,
                   data: dict[str, Any] | None = None) -> dict[str, Any]:
        with self._lock:
            att = attempt if attempt is not None else self._get(rollout_id).attempt
            self.rewards.setdefault((rollout_id, att), (reward, dict(data or {})))
            return {"kind": "reward", "reward": self.rewards[(rollout_id, att)][0], "attempt": att}

    def proxy_base_url(self, rollout_id: str) -> str:
        return self.base_url

    def status(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        """Nothing to release (a `GatewayClient` closes its connections here)."""

    def _get(self, rollout_id: str) -> Rollout:
        try:
            return self._rollouts[rollout_id]
        except KeyError:
            raise GatewayError(404, f"no rollout {rollout_id!r}") from None
