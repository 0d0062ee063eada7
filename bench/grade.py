"""Benchmark grading time on the bundled tasks (bwrap): the hardened grader vs the old one, same process.

- before: the old grader (`swerl/sandbox/grade.py` at git revision `--old-rev`, loaded from
  `git show` into a throw-away module; it is never importable from the package): a fresh
  sandbox cloned with `.git`, checkout, `git apply` inside, tests, text log parsed;
- after: the current grader: pristine export (cached per task; warmed up first, as in
  training where every task is graded many times), host-side apply, tree diff, policy,
  tamper scan, fresh sandbox without `.git`, pytest via the trusted launcher, JUnit +
  text + exit-code cross-check.
Both grade the gold patch of each task (it must resolve on both), interleaved per rep.
Goal: p50 after <= 1.5x p50 before.

Usage: .venv/bin/python bench/grade.py [--reps 3] [--tasks 4] [--old-rev HEAD]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
GOAL_RATIO = 1.5


def old_grader(rev: str) -> ModuleType:
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:swerl/sandbox/grade.py"], capture_output=True,
                         text=True, check=True).stdout
    if "export_pristine" in src:
        raise SystemExit(f"--old-rev {rev}: swerl/sandbox/grade.py there is already the hardened grader")
    path = Path(tempfile.mkdtemp(prefix="swerl-bench-")) / "old_grade.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("swerl_bench_old_grade", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=4)
    ap.add_argument("--old-rev", default="HEAD")
    args = ap.parse_args()

    import logging

    logging.disable(logging.WARNING)
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.grade import grade as new_grade
    from swerl.sandbox.images import ensure_rootfs
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings
    from swerl.sandbox.tasks import load_taskpack

    old = old_grader(args.old_rev)
    pack, tasks = load_taskpack()
    sb = BwrapSandbox(SandboxSettings(command_timeout_s=120, bwrap=BwrapSettings(rootfs=ensure_rootfs())))
    rows = [r for r in pack.rows if "hidden" not in r.instance_id][: args.tasks]  # the old grader has no hidden tests
    before: list[float] = []
    after: list[float] = []
    for row in rows:  # warm-up: the pristine export cache, page cache
        task, gold = tasks[row.instance_id], pack.gold_patch(row)
        if not (new_grade(sb, task, gold).resolved and old.grade(sb, task, gold).resolved):
            print(f"{row.instance_id}: gold did not resolve", file=sys.stderr)
            return 1
    for _ in range(args.reps):
        for row in rows:
            task, gold = tasks[row.instance_id], pack.gold_patch(row)
            t0 = time.perf_counter()
            ok_old = old.grade(sb, task, gold).resolved
            before.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ok_new = new_grade(sb, task, gold).resolved
            after.append(time.perf_counter() - t0)
            if not (ok_old and ok_new):
                print(f"{row.instance_id}: gold did not resolve", file=sys.stderr)
                return 1
    b50, a50 = statistics.median(before), statistics.median(after)
    print(f"grading {len(rows)} tasks x {args.reps} reps (gold patches, bwrap):")
    print(f"  before (old grader @ {args.old_rev}) p50 {b50:.2f} s  mean {statistics.mean(before):.2f} s")
    print(f"  after  (hardened grader)     p50 {a50:.2f} s  mean {statistics.mean(after):.2f} s")
    ratio = a50 / b50
    print(f"BENCH grade_seconds_p50 {a50:.2f} s goal <={GOAL_RATIO * b50:.2f} {'met' if ratio <= GOAL_RATIO else 'missed'}")
    print(f"BENCH grade_vs_old_ratio {ratio:.2f} x goal <={GOAL_RATIO:g} {'met' if ratio <= GOAL_RATIO else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
