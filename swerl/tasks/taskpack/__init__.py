"""The bundled task pack: tiny real Python repositories with SWE-smith-style tasks.

`materialize` turns the clean `repos/` and the bug edits in `tasks.yaml` into real git repos
(`main` clean, a branch named `instance_id` with the committed bug, as in SWE-smith's mirrors)
and `tasks.jsonl` rows whose `patch` is the real `git diff main..<instance_id>`. Fixed authors
and dates: the same pack always yields the same commit ids.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from swerl.atomic import publish_dir
from swerl.errors import SwerlError
from swerl.log import get_logger
from swerl.tasks.schema import TaskRow

log = get_logger(__name__)

PACK_DIR = Path(__file__).resolve().parent
REPOS_DIR = PACK_DIR / "repos"
OWNER = "swerl-taskpack"
TASKPACK_TEST_CMD = "python -m pytest -rA -p no:cacheprovider tests"  # every bundled repo's test command
HIDDEN_TESTS_COMMIT = "Remove F2P Tests"  # swesmith's message for the commit that hides the F2P test files
GIT_ENV = {
    "GIT_AUTHOR_NAME": "swerl",
    "GIT_AUTHOR_EMAIL": "swerl@localhost",
    "GIT_COMMITTER_NAME": "swerl",
    "GIT_COMMITTER_EMAIL": "swerl@localhost",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+0000",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+0000",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
COPY_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")


def instance_id(repo: str, task_id: str) -> str:
    """SWE-smith style id: `<owner>__<repo>.<task>`; also the problem branch's name."""
    return f"{OWNER}__{repo}.{task_id}"


def image_name(repo: str) -> str:
    """The sandbox image holding this repo at /testbed (built locally by the docker backend)."""
    return f"{OWNER}/{repo}:latest"


def git(repo: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    """Run git with a hermetic config (no user/system config, no hooks) and fixed identity; `env` adds to it."""
    res = subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "-c", "init.defaultBranch=main", *args],
        cwd=repo, env={**os.environ, **GIT_ENV, **(env or {})}, input=stdin, capture_output=True, text=True,
    )
    if res.returncode != 0:
        raise SwerlError(f"git {' '.join(args)} failed in {repo}: {res.stderr.strip()}")
    return res.stdout


def init_clean_repo(name: str, dest: Path) -> None:
    """Copy bundled repo `name` to `dest` and commit it as `main` (the clean code every task branches from)."""
    shutil.copytree(REPOS_DIR / name, dest, ignore=COPY_IGNORE)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", f"{name}: clean code")


def clear_out(out: Path, force: bool) -> None:
    """`--out` must be new or empty; `--force` removes what is there."""
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SwerlError(f"--out {out} exists and is not empty (use --force to replace it)")
        shutil.rmtree(out)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    """One row per line, keys sorted: the same rows always give the same bytes."""
    with path.open("w") as fh:
        for r in rows:
            fh.write(json.dumps(r, sort_keys=True) + "\n")


def test_functions(path: Path, rel: str) -> list[str]:
    """Pytest node ids (`rel::name`) of a test file's top-level test functions, found statically (no run needed)."""
    tree = ast.parse(path.read_text())
    return [f"{rel}::{n.name}" for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]


@dataclass
class TaskPack:
    """A materialised task pack: rows plus where each row's git repo lives."""

    root: Path
    rows: list[TaskRow]

    def repo_dir(self, row: TaskRow) -> Path:
        """The git repository (all branches) for a row; a sandbox copies it to /testbed."""
        return self.root / "repos" / row.repo.split("/", 1)[1]

    def gold_patch(self, row: TaskRow) -> str:
        """The fix: the diff from the problem branch back to clean `main` (for a branch that hides its tests, from
        the bug commit: the fix never re-adds the hidden test files)."""
        repo = self.repo_dir(row)
        tip_msg = git(repo, "log", "-1", "--format=%s", row.instance_id).strip()
        start = f"{row.instance_id}~1" if tip_msg == HIDDEN_TESTS_COMMIT else row.instance_id
        return git(repo, "diff", "--no-color", start, "main")

    def test_cmd(self, row: TaskRow) -> str:
        return TASKPACK_TEST_CMD


def load(root: Path) -> TaskPack:
    """Open a pack written earlier by `materialize`."""
    path = Path(root) / "tasks.jsonl"
    if not path.exists():
        raise SwerlError(f"{root} is not a materialised task pack (no tasks.jsonl)")
    rows = [TaskRow.model_validate_json(line) for line in path.read_text().splitlines() if line.strip()]
    return TaskPack(Path(root), rows)


def _build_repo(name: str, dest: Path, tasks: list[dict]) -> list[TaskRow]:
    init_clean_repo(name, dest)
    all_tests = [t for f in sorted((dest / "tests").glob("test_*.py"))
                 for t in test_functions(f, f.relative_to(dest).as_posix())]
    rows = []
    for task in tasks:
        iid = instance_id(name, task["id"])
        git(dest, "checkout", "-q", "-b", iid, "main")
        for edit in task["edits"]:
            f = dest / edit["file"]
            text = f.read_text()
            if text.count(edit["old"]) != 1:
                raise SwerlError(f"task pack: task {task['id']}: edit target not found exactly once in {edit['file']}")
            f.write_text(text.replace(edit["old"], edit["new"]))
        git(dest, "commit", "-q", "-am", f"Introduce bug {task['id']}")
        patch = git(dest, "diff", "--no-color", "main", iid)
        if task.get("hidden_tests"):  # SWE-smith: a last commit removes the F2P test files (the agent never sees them)
            for test_file in sorted({t.split("::", 1)[0] for t in task["FAIL_TO_PASS"]}):
                git(dest, "rm", "-q", test_file)
            git(dest, "commit", "-q", "-m", HIDDEN_TESTS_COMMIT)
        git(dest, "checkout", "-q", "main")
        f2p = list(task["FAIL_TO_PASS"])
        unknown = sorted(set(f2p) - set(all_tests))
        if unknown:
            raise SwerlError(f"task pack: task {task['id']}: unknown tests in FAIL_TO_PASS: {unknown}")
        rows.append(TaskRow(
            instance_id=iid, repo=f"{OWNER}/{name}", patch=patch, FAIL_TO_PASS=f2p,
            PASS_TO_PASS=[t for t in all_tests if t not in f2p], image_name=image_name(name),
            problem_statement=task["problem_statement"],
        ))
    return rows


def materialize(out: Path, force: bool = False) -> TaskPack:
    """Write the pack (git repos + tasks.jsonl) to `out`, atomically (temp dir, then rename)."""
    out = Path(out)
    clear_out(out, force)
    with publish_dir(out) as tmp:
        spec = yaml.safe_load((PACK_DIR / "tasks.yaml").read_text())
        rows: list[TaskRow] = []
        for name in sorted({t["repo"] for t in spec}):
            rows += _build_repo(name, tmp / "repos" / name, [t for t in spec if t["repo"] == name])
        write_jsonl(tmp / "tasks.jsonl", [row.model_dump(mode="json") for row in rows])
    log.info("task pack materialised", out=str(out), tasks=len(rows))
    return TaskPack(out, rows)
