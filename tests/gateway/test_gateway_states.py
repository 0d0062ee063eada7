"""The rollout state machine: the transition table, retries of infra failures, stale-attempt guard."""

from __future__ import annotations

import itertools

import pytest

from swerl.gateway.states import TERMINAL, TRANSITIONS, TransitionError, transition

STATES = ["queued", "running", "succeeded", "failed_agent", "failed_infra"]


def test_happy_path_and_terminal_outcomes() -> None:
    assert transition("queued", 1, 3, "running", None).state == "running"
    for end in ("succeeded", "failed_agent", "failed_infra"):
        out = transition("running", 1, 3, end, None)
        assert (out.state, out.attempt, out.changed) == (end, 1, True)


@pytest.mark.parametrize(("src", "dst"), [p for p in itertools.product(STATES, STATES)
                                          if p[0] != p[1] and p not in TRANSITIONS])
def test_everything_outside_the_table_is_refused(src: str, dst: str) -> None:
    with pytest.raises(TransitionError, match="invalid transition"):
        transition(src, 1, 3, dst, None)


def test_finished_rollouts_stay_finished_except_infra_retry() -> None:
    for src in TERMINAL - {"failed_infra"}:
        for dst in STATES:
            if dst != src:
                with pytest.raises(TransitionError):
                    transition(src, 1, 3, dst, None)


def test_infra_retry_starts_a_new_attempt_until_the_budget_is_spent() -> None:
    out = transition("failed_infra", 1, 3, "queued", None)
    assert (out.state, out.attempt) == ("queued", 2)
    out = transition("failed_infra", 2, 3, "queued", None)
    assert out.attempt == 3
    with pytest.raises(TransitionError, match="no retries left"):
        transition("failed_infra", 3, 3, "queued", None)


def test_repeating_the_current_state_is_an_idempotent_no_op() -> None:
    for s in STATES:
        out = transition(s, 2, 3, s, None)
        assert (out.state, out.attempt, out.changed) == (s, 2, False)
        assert not transition(s, 2, 3, s, 2).changed


def test_stale_attempt_guard() -> None:
    # a worker of attempt 1 reports success after the rollout was retried as attempt 2
    with pytest.raises(TransitionError, match="stale"):
        transition("running", 2, 3, "succeeded", 1)
    assert transition("running", 2, 3, "succeeded", 2).state == "succeeded"
