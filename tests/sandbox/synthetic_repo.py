"""A synthetic SWE-smith repository for through-the-grader tests: `main` holds the correct code and the tests, one
branch per task holds its bug (the grader's pristine tree), and the rows point at the local repo (bwrap)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from swerl.sandbox.schema import SandboxTask
from swerl.sandbox.tasks import task_from_row


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                   capture_output=True)


def make_tasks(repo: Path, owner: str, files: dict[str, str], bugs: dict[str, tuple[str, str]],
               f2p: dict[str, list[str]]) -> dict[str, SandboxTask]:
    """Task `name` -> its row: `bugs[name]` = (path, buggy text); its F2P are `f2p[name]`, the other tasks' P2P."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "main")
    everything = [t for ts in f2p.values() for t in ts]
    tasks = {}
    for name, (rel, text) in bugs.items():
        iid = f"{owner}__{owner}lib.{name}"
        git(repo, "checkout", "-q", "-b", iid, "main")
        (repo / rel).write_text(text)
        git(repo, "commit", "-qam", "bug")
        tasks[name] = task_from_row({"instance_id": iid, "repo": f"{owner}/{owner}lib", "patch": "",
                                     "FAIL_TO_PASS": f2p[name],
                                     "PASS_TO_PASS": [t for t in everything if t not in f2p[name]],
                                     "problem_statement": name, "image_name": f"{owner}/{owner}lib:latest"},
                                    repo_dir=repo)
    git(repo, "checkout", "-q", "main")
    return tasks


def unified_diff(path: str, old: str, new: str) -> str:
    """A unified diff replacing the whole of `path` (or adding it when `old` is empty)."""
    o, n = old.splitlines(), new.splitlines()
    head = f"diff --git a/{path} b/{path}\n" + ("new file mode 100644\n--- /dev/null\n" if not old else f"--- a/{path}\n")
    return (head + f"+++ b/{path}\n@@ -{'0,0' if not o else f'1,{len(o)}'} +1,{len(n)} @@\n"
            + "".join(f"-{x}\n" for x in o) + "".join(f"+{x}\n" for x in n))
