"""`swerl sandbox run` and `swerl sandbox grade` end to end (bwrap), and flag errors that name the flag."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import SwerlError
from swerl.sandbox.schema import SandboxTask


@pytest.fixture(autouse=True)
def _pack_cache(monkeypatch: pytest.MonkeyPatch, taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    """Point the CLI at the session's materialised pack (the CLI otherwise uses ~/.cache/swerl/taskpack)."""
    root = taskpack[0].root
    monkeypatch.setattr("swerl.sandbox.tasks.taskpack_root", lambda: root)


def test_run_then_grade(tmp_path: Path, rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    runner = CliRunner()
    patch = tmp_path / "fix.diff"
    fix = "sed -i 's/ordered\\[mid\\] + ordered\\[mid + 1\\]/ordered[mid - 1] + ordered[mid]/' calc/stats.py"
    res = runner.invoke(app, ["sandbox", "run", "median_even", "--rootfs", str(rootfs), "--cmd", "git log",
                              "--cmd", fix, "--cmd", "echo forged > conftest.py", "--patch-out", str(patch)])
    assert res.exit_code == 0, res.output
    assert "git is disabled" in res.output and "dropped conftest.py" in res.output
    assert "calc/stats.py" in patch.read_text() and "conftest" not in patch.read_text()

    res = runner.invoke(app, ["sandbox", "grade", "median_even", "--rootfs", str(rootfs), "--patch", str(patch), "--json"])
    assert res.exit_code == 0, res.output
    result = json.loads(res.stdout)
    assert result["resolved"] is True and result["tests"][calc_task[1].FAIL_TO_PASS[0]] == "PASSED"

    empty = tmp_path / "empty.diff"
    empty.write_text("")
    res = runner.invoke(app, ["sandbox", "grade", calc_task[1].instance_id, "--rootfs", str(rootfs), "--patch", str(empty)])
    assert res.exit_code == 1 and "UNRESOLVED" in res.output and "FAILED" in res.output


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["sandbox", "grade", "median_even", "--patch", "/nonexistent.diff"], "--patch"),
        (["sandbox", "grade", "no_such_task", "--rootfs", "host", "--patch", __file__], "TASK"),
        (["sandbox", "run", "median_even", "--rootfs", "/nonexistent-rootfs"], "--rootfs"),
        (["sandbox", "run", "median_even", "--backend", "nosuch"], "--backend"),
        (["sandbox", "audit", "--backend", "kubernetes"], "--backend"),
    ],
)
def test_user_errors_name_the_flag(args: list[str], flag: str) -> None:
    res = CliRunner().invoke(app, args)
    assert isinstance(res.exception, SwerlError), res.output
    assert flag in str(res.exception)


def test_run_a_tasks_file_row_on_bwrap(tmp_path: Path, rootfs: Path) -> None:
    """`--tasks` rows as `swerl data taskgen` writes them: bwrap checks out the row's branch from `repo_dir`,
    relative to the file; a row without one is a clear error naming the line and the field, not a traceback."""
    import subprocess

    repo = tmp_path / "repos" / "pkg"
    repo.mkdir(parents=True)
    (repo / "mod.py").write_text("X = 1\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q", "-b", "t__pkg.x"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "bug"], check=True)
    row = {"instance_id": "t__pkg.x", "repo": "t/pkg", "patch": "", "FAIL_TO_PASS": [], "PASS_TO_PASS": [],
           "image_name": "t/pkg:latest", "repo_dir": "repos/pkg"}
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({**row, "instance_id": "t__pkg.y", "repo_dir": None}) + "\n" + json.dumps(row) + "\n")
    res = CliRunner().invoke(app, ["sandbox", "run", "t__pkg.x", "--tasks", str(tasks), "--rootfs", str(rootfs),
                                   "--cmd", "cat mod.py"])
    assert res.exit_code == 0, res.output
    assert "X = 1" in res.output
    res = CliRunner().invoke(app, ["sandbox", "run", "t__pkg.y", "--tasks", str(tasks), "--rootfs", str(rootfs)])
    assert isinstance(res.exception, SwerlError), res.output
    assert "line 1" in str(res.exception) and "repo_dir" in str(res.exception)
