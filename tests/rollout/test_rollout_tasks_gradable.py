"""Rows whose fix the grader cannot grade are left out of a task source, and said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from swerl.rollout.tasks import TaskSource


def _row(iid: str, fix_path: str) -> dict[str, object]:
    return {"instance_id": iid, "repo": "o/r", "image_name": "o/r:latest", "problem_statement": "p",
            "patch": f"diff --git a/{fix_path} b/{fix_path}\n--- a/{fix_path}\n+++ b/{fix_path}\n@@ -1 +1 @@\n-x\n+y\n",
            "FAIL_TO_PASS": ["tests/test_a.py::test_a"], "PASS_TO_PASS": []}


def test_a_row_whose_fix_is_in_the_test_runner_is_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The pytest repository's own runner (`src/_pytest/`) and `django/test/` are kept from every patch by the tree
    policy, so a fix there could only be dropped (a reward of 0 for a right answer) or refused as infrastructure,
    retried and never trained: such rows never become rollouts. Ordinary rows stay, in order."""
    rows = [_row("a__b-1", "src/pkg/core.py"), _row("pytest-dev__pytest-1", "src/_pytest/python.py"),
            _row("django__django-1", "django/test/testcases.py"), _row("a__b-2", "pkg/x.py")]
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with caplog.at_level("WARNING"):
        source = TaskSource(str(data))
    assert source.instance_ids == ["a__b-1", "a__b-2"]
    assert "rows left out" in caplog.text
