"""Hardening common to all backends: agents mined git history for the gold commit.

Before the agent's first command the branch is checked out, bytecode deleted (stale `.pyc`
of the clean code must not run), `.git` copied to the host and *removed* inside (moving it
is not enough: the agent may be root), git shadowed; `verify` then checks it from inside.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from swerl.sandbox.base import HardeningError

if TYPE_CHECKING:
    from swerl.sandbox.base import BackendBase, SandboxHandle

GIT_CORE = "/usr/lib/git-core"
GIT_STUB = """#!/bin/sh
echo "git is disabled in this sandbox (swerl): your changes are collected from the work tree when you submit." >&2
exit 1
"""

# Stale bytecode of the clean code must not run instead of the buggy source.
DROP_BYTECODE = "find . -name __pycache__ -type d -prune -exec rm -rf {} +; find . -name '*.py[co]' -type f -delete"
# Finds git binaries on PATH and in the usual places (run inside the prep sandbox).
FIND_GIT = r"""for d in $(echo "$PATH" | tr ':' ' ') /usr/bin /usr/local/bin /bin /usr/sbin /opt/conda/bin /opt/miniconda3/bin; do
  [ -f "$d/git" ] && readlink -f "$d/git"
done | sort -u"""

VERIFY = r"""cd "$1" || { echo "SWERL_HARDEN_FAIL no-workdir $1"; exit 90; }
g=$(find . -name .git 2>/dev/null | head -n 1)
[ -n "$g" ] && { echo "SWERL_HARDEN_FAIL git-dir $g"; exit 91; }
for c in git /usr/bin/git /usr/local/bin/git /bin/git /usr/lib/git-core/git /usr/lib/git-core/git-log; do
  if "$c" --version >/dev/null 2>&1; then echo "SWERL_HARDEN_FAIL git-usable $c"; exit 92; fi
done
p=$(find . -name '*.py[co]' 2>/dev/null | head -n 1)
[ -n "$p" ] && { echo "SWERL_HARDEN_FAIL bytecode $p"; exit 93; }
echo SWERL_HARDENED"""


def prep_script(branch: str, workdir: str, *, any_owner: bool = False) -> str:
    """Check out the problem branch (SWE-smith images carry it as `origin/<branch>`) and delete bytecode.
    `any_owner`: the work tree's top directory belongs to another uid (a Kubernetes emptyDir)."""
    b = shlex.quote(branch)
    safe = "-c safe.directory='*' " if any_owner else ""
    return (
        f"set -e; cd {shlex.quote(workdir)}; "
        f"git {safe}-c advice.detachedHead=false -c core.hooksPath=/dev/null checkout -q -f {b} 2>&1 "
        f"|| {{ echo \"SWERL_BRANCH_MISSING {branch}\"; exit 3; }}; "
        f"{DROP_BYTECODE}; echo SWERL_PREP_OK"
    )


def remove_git_script(workdir: str) -> str:
    """Delete every `.git` (dirs, gitlink files of submodules) below the work dir."""
    return f"find {shlex.quote(workdir)} -name .git -prune -exec rm -rf {{}} + ; echo SWERL_GIT_REMOVED"


def write_stub(directory: Path) -> Path:
    """The stub that replaces git inside the sandbox (a read-only bind mount)."""
    directory.mkdir(parents=True, exist_ok=True)
    stub = directory / "git"
    stub.write_text(GIT_STUB)
    stub.chmod(0o555)
    return stub


def git_binaries(find_output: str) -> list[str]:
    """Parse FIND_GIT output; binaries inside git-core are covered by the tmpfs over git-core."""
    paths = {line.strip() for line in find_output.splitlines() if line.strip().startswith("/")}
    return sorted(p for p in paths if not p.startswith(GIT_CORE + "/"))


def branch_missing(output: str) -> bool:
    return "SWERL_BRANCH_MISSING" in output


def verify(sandbox: BackendBase, handle: SandboxHandle) -> None:
    """Check from inside: no `.git` anywhere under the work dir, no usable git, no bytecode."""
    res = sandbox.exec_argv(handle, ["sh", "-c", VERIFY, "verify", handle.task.workdir], timeout=60)
    if res.returncode != 0 or "SWERL_HARDENED" not in res.output:
        raise HardeningError(f"sandbox {handle.id} failed hardening checks: {res.output.strip()[-500:]}")
