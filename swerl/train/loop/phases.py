"""The trainer's phases as a transition table (docs/train.md), with wall time per phase.

Any move outside the table is a bug in the loop, so `PhaseMachine.go` raises instead of
silently switching.
"""

from __future__ import annotations

import time
from enum import StrEnum


class Phase(StrEnum):
    STARTING = "starting"
    ROLLOUT = "rollout"
    DRAIN = "drain"
    UPDATE = "update"
    SYNC = "sync"
    CHECKPOINT = "checkpoint"
    STOPPING = "stopping"
    DONE = "done"


P = Phase
TRANSITIONS: frozenset[tuple[Phase, Phase]] = frozenset({
    (P.STARTING, P.ROLLOUT),
    (P.STARTING, P.STOPPING),      # failed or interrupted while starting
    (P.ROLLOUT, P.DRAIN),          # a batch is ready (collocated: pause the gateway)
    (P.ROLLOUT, P.UPDATE),         # sync mode: nothing in flight, nothing to drain
    (P.ROLLOUT, P.STOPPING),
    (P.DRAIN, P.UPDATE),
    (P.DRAIN, P.STOPPING),
    (P.UPDATE, P.SYNC),
    (P.UPDATE, P.ROLLOUT),         # every rollout of the batch was dropped (over-stale): no step
    (P.UPDATE, P.STOPPING),
    (P.SYNC, P.ROLLOUT),
    (P.SYNC, P.CHECKPOINT),
    (P.SYNC, P.STOPPING),
    (P.CHECKPOINT, P.ROLLOUT),
    (P.CHECKPOINT, P.STOPPING),
    (P.STOPPING, P.DONE),
})
"""Allowed (from, to) moves."""


class PhaseError(RuntimeError):
    """A transition outside the table: a bug in the loop, never a user error."""


class PhaseMachine:
    """Current phase, time spent in each phase (total and since `lap()`), and a listener for progress."""

    def __init__(self, on_change: object = None) -> None:
        self.phase = Phase.STARTING
        self._since = time.perf_counter()
        self.totals: dict[str, float] = {p.value: 0.0 for p in Phase}
        self._lap: dict[str, float] = {p.value: 0.0 for p in Phase}
        self._on_change = on_change

    def go(self, to: Phase) -> None:
        if (self.phase, to) not in TRANSITIONS:
            raise PhaseError(f"phase {self.phase.value} -> {to.value} is not in the transition table")
        now = time.perf_counter()
        spent = now - self._since
        self.totals[self.phase.value] += spent
        self._lap[self.phase.value] += spent
        self.phase, self._since = to, now
        if callable(self._on_change):
            self._on_change(to)

    def lap(self) -> dict[str, float]:
        """Seconds per phase since the previous lap (the current phase counted up to now); resets."""
        now = time.perf_counter()
        out = dict(self._lap)
        out[self.phase.value] += now - self._since
        self.totals[self.phase.value] += now - self._since
        self._since = now
        self._lap = {p.value: 0.0 for p in Phase}
        return out


__all__ = ["TRANSITIONS", "Phase", "PhaseError", "PhaseMachine"]
