"""The rollout state machine as a transition table.

queued -> running -> succeeded | failed_agent | failed_infra; failed_infra -> queued
retries the rollout as a new attempt, up to the rollout's max_attempts. Agent
failures are trained on (reward 0); infrastructure failures never are, so they
are retried instead. Anything else is a 409.
"""

from __future__ import annotations

from dataclasses import dataclass

TERMINAL = frozenset({"succeeded", "failed_agent", "failed_infra"})
TRAINABLE = frozenset({"succeeded", "failed_agent"})

# (from, to) -> does this transition start a new attempt?
TRANSITIONS: dict[tuple[str, str], bool] = {
    ("queued", "running"): False,
    ("queued", "failed_infra"): False,  # could not even be launched
    ("running", "succeeded"): False,
    ("running", "failed_agent"): False,
    ("running", "failed_infra"): False,
    ("failed_infra", "queued"): True,  # infra retry
}


class TransitionError(Exception):
    """The transition is not in the table (or the retry budget is spent); the API answers 409."""


@dataclass(frozen=True, slots=True)
class Outcome:
    state: str
    attempt: int
    changed: bool


def transition(state: str, attempt: int, max_attempts: int, target: str, guard: int | None) -> Outcome:
    """Apply `target` to (state, attempt); repeating the current state is an idempotent no-op. `guard` is
    the attempt the caller reports on: a stale worker must not finish a rollout since retried."""
    if target == state and (guard is None or guard == attempt):
        return Outcome(state, attempt, changed=False)
    if guard is not None and guard != attempt:
        raise TransitionError(f"attempt {guard} is stale: the rollout is at attempt {attempt} ({state})")
    new_attempt = TRANSITIONS.get((state, target))
    if new_attempt is None:
        raise TransitionError(f"invalid transition {state} -> {target}")
    if new_attempt:
        if attempt >= max_attempts:
            raise TransitionError(f"no retries left: attempt {attempt} of {max_attempts}")
        return Outcome(target, attempt + 1, changed=True)
    return Outcome(target, attempt, changed=True)
