"""Host-side patch extraction and the protected-file filter, on real git repositories."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from swerl.sandbox.patch import compute_patch, filter_patch, protected_reason, split_patch

GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


PYPROJECT = ('[project]\nname = "pkg"\nversion = "{version}"\n' + "".join(f"# filler {i}\n" for i in range(10))
             + '\n[tool.pytest.ini_options]\naddopts = "{addopts}"\n')


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture
def saved_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A repo whose .git has been moved away from its work tree (as hardening does)."""
    work = tmp_path / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "tests").mkdir()
    (work / "pkg" / "core.py").write_text("def f():\n    return 1\n")
    (work / "tests" / "test_core.py").write_text("def test_f():\n    assert True\n")
    (work / "pyproject.toml").write_text(PYPROJECT.format(version="0.1", addopts="-q"))
    git(work, "init", "-q")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "init")
    saved = tmp_path / "saved"
    saved.mkdir()
    (work / ".git").rename(saved / ".git")
    return saved / ".git", work


@pytest.mark.parametrize(
    ("path", "protected"),
    [
        ("conftest.py", True), ("pkg/sub/conftest.py", True), ("sitecustomize.py", True), ("usercustomize.py", True),
        ("lib/evil.pth", True), ("pytest.ini", True), ("tox.ini", True), ("setup.cfg", True),
        ("tests/test_core.py", True), ("pkg/tests/helpers.py", True), ("test_thing.py", True), ("pkg/x_test.py", True),
        ("pytest.py", True), ("_pytest/main.py", True), ("pkg/__pycache__/core.cpython-311.pyc", True),
        ("pkg/core.py", False), ("pkg/testament.txt", False), ("README.md", False), ("pkg/contest.py", False),
    ],
)
def test_protected_paths(path: str, protected: bool) -> None:
    assert (protected_reason(path) is not None) is protected


def test_fail_to_pass_files_are_protected_even_outside_test_dirs() -> None:
    assert protected_reason("checks/verify_core.py") is None
    assert protected_reason("checks/verify_core.py", {"checks/verify_core.py"}) is not None


def test_compute_patch_keeps_code_and_drops_forgeries(saved_repo: tuple[Path, Path]) -> None:
    git_dir, work = saved_repo
    (work / "pkg" / "core.py").write_text("def f():\n    return 2\n")
    (work / "pkg" / "new.py").write_text("X = 1\n")
    (work / "conftest.py").write_text("import pytest\n")
    (work / "tests" / "test_core.py").write_text("def test_f():\n    assert 1\n")
    (work / "sitecustomize.py").write_text("print('hi')\n")
    (work / "x.pth").write_text("import os\n")
    (work / "pyproject.toml").write_text(PYPROJECT.format(version="0.2", addopts="-p forge"))
    res = compute_patch(git_dir, work)
    assert res.files == ["pkg/core.py", "pkg/new.py", "pyproject.toml"]
    assert "+    return 2" in res.patch and "+X = 1" in res.patch
    assert '+version = "0.2"' in res.patch  # the metadata hunk stays ...
    assert "forge" not in res.patch  # ... the pytest addopts hunk goes
    dropped = {d.path: d.reason for d in res.dropped}
    assert set(dropped) == {"conftest.py", "tests/test_core.py", "sitecustomize.py", "x.pth", "pyproject.toml"}
    assert "pytest configuration" in dropped["pyproject.toml"]
    # the kept patch applies cleanly to the original tree
    check = work.parent / "check"
    git(work.parent, "--git-dir", str(git_dir), "worktree", "add", "-q", str(check), "HEAD")
    (check / "p.diff").write_text(res.patch)
    git(check, "apply", "--check", "p.diff")


def test_compute_patch_ignores_agent_git_dirs_and_never_runs_repo_commands(saved_repo: tuple[Path, Path], tmp_path: Path) -> None:
    git_dir, work = saved_repo
    marker = tmp_path / "fsmonitor-ran"
    hook = tmp_path / "fsmonitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    # Even if the saved config named an fsmonitor command or hooks, the host-side diff must not run them.
    git(work.parent, "--git-dir", str(git_dir), "config", "core.fsmonitor", str(hook))
    (git_dir / "hooks" / "pre-commit").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (git_dir / "hooks" / "pre-commit").chmod(0o755)
    (work / "sub" / ".git").mkdir(parents=True)
    (work / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (work / "sub" / "mod.py").write_text("Y = 2\n")
    (work / ".git").write_text("gitdir: /etc\n")  # a fake gitlink at the top
    res = compute_patch(git_dir, work)
    assert not marker.exists()
    assert sorted(res.removed_git_dirs) == [".git", "sub/.git"]
    assert res.files == ["sub/mod.py"]


def test_compute_patch_binary_and_symlink(saved_repo: tuple[Path, Path]) -> None:
    git_dir, work = saved_repo
    (work / "pkg" / "blob.bin").write_bytes(bytes(range(256)))
    os.symlink("/etc/passwd", work / "pkg" / "link")
    res = compute_patch(git_dir, work)
    assert "GIT binary patch" in res.patch
    assert "new file mode 120000" in res.patch and "+/etc/passwd" in res.patch
    assert "root:" not in res.patch  # the link is recorded, never followed


def test_filter_patch_handles_renames_and_quoted_names() -> None:
    patch = (
        "diff --git a/pkg/a.py b/tests/test_a.py\nsimilarity index 100%\nrename from pkg/a.py\nrename to tests/test_a.py\n"
        'diff --git "a/pkg/sp ace.py" "b/pkg/sp ace.py"\n--- "a/pkg/sp ace.py"\n+++ "b/pkg/sp ace.py"\n@@ -1 +1 @@\n-a\n+b\n'
    )
    res = filter_patch(patch)
    assert [d.path for d in res.dropped] == ["pkg/a.py"]  # moving code into a test file is dropped
    assert res.files == ["pkg/sp ace.py"]
    assert len(split_patch(res.patch)) == 1


def test_filter_patch_counts_bytecode_separately() -> None:
    patch = ("diff --git a/pkg/__pycache__/x.pyc b/pkg/__pycache__/x.pyc\nnew file mode 100644\nGIT binary patch\nliteral 1\n"
             "zcmZo*\n\nliteral 0\nHcmV?d00001\n\n")
    res = filter_patch(patch)
    assert res.patch == "" and res.dropped == [] and res.ignored_bytecode == 1
