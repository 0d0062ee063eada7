"""The bundled task pack is real: F2P tests fail on the problem branch and pass on main; P2P pass on both."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.tasks.taskpack import HIDDEN_TESTS_COMMIT, TaskPack, git, load, materialize


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> TaskPack:
    return materialize(tmp_path_factory.mktemp("tp") / "pack")


def _run_tests(repo: Path, ref: str, work: Path) -> Callable[[], dict[str, str]]:
    """Check out `ref` into a fresh worktree (now: git locks the repo); returns a job that runs its tests and
    gives node id -> passed|failed (jobs run in parallel: they share nothing)."""
    git(repo, "worktree", "add", "-q", "--detach", str(work), ref)
    xml = work / "report.xml"

    def job() -> dict[str, str]:
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}", "tests"],
                       cwd=work, capture_output=True)
        status = {}
        for case in ET.parse(xml).getroot().iter("testcase"):
            node = case.get("classname", "").replace(".", "/") + ".py::" + case.get("name", "")
            failed = any(child.tag in ("failure", "error") for child in case)
            status[node] = "failed" if failed else "passed"
        return status

    return job


def test_pack_shape(pack: TaskPack) -> None:
    assert len(pack.rows) >= 8
    assert len({r.repo for r in pack.rows}) >= 3
    assert any(not (r.problem_statement or "").strip() for r in pack.rows), "one task has an empty statement"
    multi_file = [r for r in pack.rows if r.patch.count("diff --git") >= 2]
    assert multi_file, "a multi-file fix exists"
    assert any("slow" in t for r in pack.rows for t in r.FAIL_TO_PASS), "a task with slow tests exists"
    for row in pack.rows:
        branches = git(pack.repo_dir(row), "branch", "--format=%(refname:short)").split()
        assert row.instance_id in branches and "main" in branches
        assert row.image_name.startswith("swerl-taskpack/")


def test_f2p_and_p2p_are_true(pack: TaskPack, tmp_path: Path) -> None:
    jobs: dict[str, Callable[[], dict[str, str]]] = {}
    for row in pack.rows:
        repo = pack.repo_dir(row)
        if f"main-{repo.name}" not in jobs:
            jobs[f"main-{repo.name}"] = _run_tests(repo, "main", tmp_path / f"main-{repo.name}")
        hidden = git(repo, "log", "-1", "--format=%s", row.instance_id).strip() == HIDDEN_TESTS_COMMIT
        # a branch that hides its F2P tests is graded at the bug commit, as swesmith's harness does (HEAD~1)
        jobs[row.instance_id] = _run_tests(repo, row.instance_id + ("~1" if hidden else ""), tmp_path / row.instance_id)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        status = dict(zip(jobs, pool.map(lambda job: job(), jobs.values()), strict=True))
    for row in pack.rows:
        bug, clean = status[row.instance_id], status[f"main-{pack.repo_dir(row).name}"]
        for t in row.FAIL_TO_PASS:
            assert bug[t] == "failed", (row.instance_id, t)
            assert clean[t] == "passed", (row.instance_id, t)
        for t in row.PASS_TO_PASS:
            assert bug[t] == "passed", (row.instance_id, t)
            assert clean[t] == "passed", (row.instance_id, t)
        assert set(bug) == set(row.FAIL_TO_PASS) | set(row.PASS_TO_PASS)


def test_gold_patch_reverses_bug(pack: TaskPack, tmp_path: Path) -> None:
    row = next(r for r in pack.rows if r.patch.count("diff --git") >= 2)
    work = tmp_path / "w"
    git(pack.repo_dir(row), "worktree", "add", "-q", "--detach", str(work), row.instance_id)
    (work / "fix.diff").write_text(pack.gold_patch(row))
    git(work, "apply", "fix.diff")
    (work / "fix.diff").unlink()
    assert git(work, "diff", "--stat", "main") == ""


def test_materialize_is_deterministic_and_loadable(pack: TaskPack, tmp_path: Path) -> None:
    again = materialize(tmp_path / "again")
    assert (again.root / "tasks.jsonl").read_bytes() == (pack.root / "tasks.jsonl").read_bytes()
    row = pack.rows[0]
    assert git(again.repo_dir(row), "rev-parse", row.instance_id) == git(pack.repo_dir(row), "rev-parse", row.instance_id)
    assert [r.instance_id for r in load(again.root).rows] == [r.instance_id for r in pack.rows]


def test_cli_taskpack_refuses_nonempty_out(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["data", "taskpack", "--out", str(tmp_path / "p")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "p" / "tasks.jsonl").exists()
    res = runner.invoke(app, ["data", "taskpack", "--out", str(tmp_path / "p")])
    assert res.exit_code != 0
    assert "--force" in str(res.exception)
