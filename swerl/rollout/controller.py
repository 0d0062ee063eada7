"""Declarative rollouts and the reconciliation loop that runs them (docs/rollout.md).

The trainer declares rollouts (idempotent ids); each `reconcile()` pass reads the gateway and
acts: crashed workers and rollouts past their deadline (held time excluded) -> `failed_infra`,
`failed_infra` with attempts left -> `queued`, `queued` -> claimed and launched within
`concurrency` and the rate limit. All state lives in the gateway, so a new controller carries on
where a killed one stopped. The lease is the deadline because the runner has no heartbeat: a
worker of a dead controller is certainly finished once its own time budget is over. A 409 means
someone else got there first and is ignored.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from swerl.gateway.client import GatewayClient, GatewayError
from swerl.gateway.schema import Rollout
from swerl.log import get_logger
from swerl.rollout.launchers import Launcher
from swerl.rollout.ledger import Ledger
from swerl.rollout.schema import RolloutRequest

log = get_logger(__name__)

_MAX_ID = 128


def _id(text: str) -> str:
    """Gateway ids are <= 128 chars of [A-Za-z0-9._:-]; long or odd ones keep a readable prefix + a hash."""
    clean = "".join(c if c.isalnum() or c in "._:-" else "-" for c in text).lstrip("._:-") or "x"
    if clean == text and len(text) <= _MAX_ID:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return f"{clean[:_MAX_ID - 13]}-{digest}"


def plan(instance_ids: Iterable[str], n: int, *, prefix: str = "", max_attempts: int = 3,
         metadata: dict[str, Any] | None = None) -> list[RolloutRequest]:
    """`n` rollouts per task: group `<prefix><instance_id>`, rollouts `<group>:<k>` (k = 0..n-1)."""
    out = []
    for iid in instance_ids:
        group = _id(f"{prefix}{iid}")
        for k in range(n):
            out.append(RolloutRequest(rollout_id=_id(f"{group}:{k}"), group_id=group, instance_id=iid,
                                      max_attempts=max_attempts, metadata=dict(metadata or {})))
    return out


def declare(client: Ledger, requests: Iterable[RolloutRequest]) -> list[str]:
    """Create the rollouts (queued); declaring the same ones again is a no-op (idempotent ids)."""
    ids = []
    for req in requests:
        client.create_rollout(req.rollout_id, group_id=req.group_id, max_attempts=req.max_attempts,
                              metadata={**req.metadata, "instance_id": req.instance_id})
        ids.append(req.rollout_id)
    log.info("rollouts declared", count=len(ids))
    return ids


class RateLimiter:
    """Token bucket: at most `rate` launches per second on average, bursts up to `burst`. 0 = unlimited."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, max(1, burst), clock
        self.tokens = float(self.burst)
        self.t = clock()

    def take(self) -> bool:
        if self.rate <= 0:
            return True
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class PassReport:
    """What one reconcile pass saw and did."""

    queued: int = 0
    running: int = 0
    launched: list[str] = field(default_factory=list)
    requeued: list[str] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)
    crashed: list[str] = field(default_factory=list)
    active: int = 0

    @property
    def idle(self) -> bool:
        """Nothing queued, running or retryable: every declared rollout has reached a final state."""
        return not (self.queued or self.running or self.requeued or self.active)


class Controller:
    def __init__(self, client: GatewayClient, launcher: Launcher, *, concurrency: int = 4, rate: float = 0.0,
                 deadline_s: float = 1800.0, grace_s: float = 300.0, poll_s: float = 1.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.client, self.launcher = client, launcher
        self.concurrency, self.deadline_s, self.grace_s, self.poll_s = concurrency, deadline_s, grace_s, poll_s
        self.clock = clock
        self.limiter = RateLimiter(rate, burst=concurrency)
        self._started: dict[str, float] = {}  # rollout id -> when this controller launched it
        self._held_at_launch: dict[str, float] = {}  # rollout id -> its gateway held_s at that launch
        self._given_up: set[tuple[str, int]] = set()  # failed_infra without attempts left, seen already
        self.stop_event = threading.Event()
        self.wake = threading.Event()  # `kick()`: something changed (declared, finished), reconcile now

    # ---------------------------------------------------------------------------- one pass
    def reconcile(self, full: bool = True) -> PassReport:
        """One pass. `full=False` (a `kick()` between polls) only reaps and launches: deadlines and
        retries need a scan of every running / failed rollout, done at most every `poll_s`."""
        rep = PassReport()
        self._reap(rep)
        if full:
            mine = self.launcher.active()  # once per pass: for Kubernetes this is an API call
            for r in self.client.rollouts(["running"]):
                self._check_running(r, rep, mine.get(r.id) == r.attempt)
            for r in self.client.rollouts(["failed_infra"]):
                self._retry(r, rep)
        queued = self.client.rollouts(["queued"])
        rep.queued = len(queued)
        active = self.launcher.active()
        for r in queued:
            if len(active) >= self.concurrency:
                break
            if r.id in active or not self.limiter.take():
                continue
            if self._launch(r):
                active[r.id] = r.attempt
                rep.launched.append(r.id)
        rep.active = len(self.launcher.active())
        rep.running += len(rep.launched)
        return rep

    def _transition(self, rid: str, state: str, attempt: int, reason: str) -> bool:
        try:
            self.client.set_state(rid, state, attempt=attempt, reason=reason)
            return True
        except GatewayError as exc:
            if exc.status == 409:  # someone else moved it first (the worker, another attempt)
                return False
            raise

    def _reap(self, rep: PassReport) -> None:
        for fin in self.launcher.reap():
            self._started.pop(fin.rollout_id, None)
            if fin.ok:
                continue
            r = self.client.rollout(fin.rollout_id)
            if r.state == "running" and r.attempt == fin.attempt:
                reason = f"worker exited without recording an outcome: {fin.detail}"[:3900]
                if self._transition(fin.rollout_id, "failed_infra", fin.attempt, reason):
                    rep.crashed.append(fin.rollout_id)
                    log.warning("rollout worker crashed", rollout=fin.rollout_id, attempt=fin.attempt,
                                detail=fin.detail[:300])

    def _check_running(self, r: Rollout, rep: PassReport, mine: bool) -> None:
        rid, now = r.id, self.clock()
        since = self._started.get(rid, r.updated) if mine else r.updated
        # time the gateway held the rollout's calls (a training update) is not the attempt's time
        held = r.held_s - (self._held_at_launch.get(rid, 0.0) if mine else 0.0)
        if now - since - max(0.0, held) <= self.deadline_s + self.grace_s:
            rep.running += 1
            return
        if mine:
            self.launcher.cancel(rid)
            self._started.pop(rid, None)
        why = "deadline exceeded" if mine else "lease expired (no live worker known to this controller)"
        if self._transition(rid, "failed_infra", r.attempt, f"{why} after {now - since:.0f} s"):
            rep.expired.append(rid)
            log.warning("rollout expired", rollout=rid, attempt=r.attempt, reason=why)

    def _retry(self, r: Rollout, rep: PassReport) -> None:
        key = (r.id, r.attempt)
        if key in self._given_up:
            return
        if r.attempt >= r.max_attempts:
            self._given_up.add(key)
            log.warning("rollout failed (infra), no attempts left", rollout=r.id, attempts=r.attempt)
            return
        # A new token first: a worker of the failed attempt still running somewhere loses model access
        # (the old token would be valid again once the rollout is queued).
        self.client.rotate_token(r.id)
        if self._transition(r.id, "queued", r.attempt, "infra retry"):
            rep.requeued.append(r.id)

    def _launch(self, r: Rollout) -> bool:
        rid, attempt = r.id, r.attempt
        if not self._transition(rid, "running", attempt, "claimed by controller"):
            return False
        self._started[rid] = self.clock()
        self._held_at_launch[rid] = r.held_s
        try:
            self.launcher.launch(rid, attempt)
        except Exception as exc:  # could not start a worker: infra, retried like any other
            self._started.pop(rid, None)
            self._transition(rid, "failed_infra", attempt, f"launch failed: {type(exc).__name__}: {exc}"[:3900])
            log.warning("launch failed", rollout=rid, error=str(exc)[:300])
            return False
        log.info("rollout launched", rollout=rid, attempt=attempt)
        return True

    # ---------------------------------------------------------------------------- the loop
    def serve(self, until_idle: bool = False, max_passes: int | None = None) -> PassReport:
        """Reconcile every `poll_s` until `stop()` (or, with `until_idle`, until nothing is left to do)."""
        rep = PassReport()
        passes = 0
        last_full = -float("inf")
        while not self.stop_event.is_set():
            now = time.monotonic()
            full = until_idle or now - last_full >= self.poll_s
            try:
                rep = self.reconcile(full=full)
                last_full = now if full else last_full
            except GatewayError as exc:  # the gateway is down: keep trying, state is safe there
                log.warning("reconcile failed", error=str(exc)[:300])
            except Exception as exc:  # a bug must not silently stop every rollout: log it, keep reconciling
                log.error("reconcile crashed", error=repr(exc)[:300], exc_info=exc)
            passes += 1
            if (until_idle and rep.idle) or (max_passes is not None and passes >= max_passes):
                break
            self.wake.wait(self.poll_s)
            self.wake.clear()
        return rep

    def kick(self) -> None:
        """Reconcile now instead of at the next poll (new rollouts declared, work finished)."""
        self.wake.set()

    def stop(self) -> None:
        self.stop_event.set()
        self.wake.set()
