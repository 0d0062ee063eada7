"""Helpers for the `swerl data filter` tests: rows in the real SWE-smith schema, input files, git."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost", "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@localhost", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
}


def make_row(n: int, *, repo: str = "owner__repo.abc1234", **overrides: Any) -> dict[str, Any]:
    """One SWE-smith row (the public data's shape): problem branch `instance_id`, image per repo."""
    owner, name = repo.split("__", 1)
    row = {
        "instance_id": f"{repo}.func_pm_op_change__{n:04d}",
        "repo": f"swesmith/{repo}",
        "patch": f"diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n+++ b/src/m.py\n@@ -1 +1 @@\n-x = {n}\n+x = {n + 1}\n",
        "FAIL_TO_PASS": [f"tests/test_m.py::test_fail_{n}"],
        "PASS_TO_PASS": [f"tests/test_m.py::test_pass_{i}" for i in range(3)],
        "image_name": f"jyangballin/swesmith.x86_64.{owner}_1776_{name}",
        "problem_statement": f"Calling m.f({n}) returns the wrong value.",
    }
    row.update(overrides)
    return row


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def write_branches(path: Path, rows: Iterable[dict[str, Any]], *, missing: Iterable[str] = (),
                   unavailable: Iterable[str] = ()) -> Path:
    """`--branches` JSON listing every row's branch except `missing`; images in `unavailable` left out."""
    missing, unavailable = set(missing), set(unavailable)
    inv: dict[str, list[str]] = {}
    for r in rows:
        if r["image_name"] in unavailable:
            continue
        inv.setdefault(r["image_name"], [])
        if r["instance_id"] not in missing:
            inv[r["image_name"]].append(r["instance_id"])
    path.write_text(json.dumps(inv))
    return path


def git(cwd: Path, *args: str) -> str:
    res = subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, env={**os.environ, **GIT_ENV},
                         capture_output=True, text=True, check=True)
    return res.stdout
