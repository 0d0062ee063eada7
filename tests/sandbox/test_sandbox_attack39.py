"""Round 39's classes that are not verdict rules (docs/sandbox.md, "Round 39"): the grader's host side."""

from __future__ import annotations

import os
from typing import Any

import pytest

from swerl.sandbox.schema import SandboxTask


@pytest.fixture(params=["bwrap", "docker"])
def grading_sandbox(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


def test_round39_a_grader_under_a_strict_umask_pays_the_honest_fix(grading_sandbox: Any, taskpack: tuple[Any, Any],
                                                                    calc_task: tuple[Any, SandboxTask]) -> None:
    """R39i-F1: the grading tree is built on the host, under the grader's umask; with 077 (hardened hosts, job
    launchers) its directories were 0700 root's, unreadable by the tests' uid, and every honest fix was the
    agent's failure (reward 0, never retried). The tree's modes are git's (0755 or 0644) whatever the umask."""
    pack, _tasks = taskpack
    row, task = calc_task
    old = os.umask(0o077)
    try:
        res = grading_sandbox.grade(task, pack.gold_patch(row))
        empty = grading_sandbox.grade(task, "")
    finally:
        os.umask(old)
    assert res.resolved, (res.error_kind, res.error, res.tampering)
    assert not empty.resolved and empty.error_kind is None, (empty.error_kind, empty.error)
