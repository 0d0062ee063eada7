"""Benchmark grading time on the bundled tasks (bwrap): the current grader vs a baseline revision, interleaved.

- baseline: the whole `swerl` package at `--baseline-rev` (default: the round-2 hardened grader, whose p50 was
  1.37 s), extracted with `git archive` and run in a worker process that stays up for the whole run
  (one package cannot be imported twice in one process); each grade is timed inside the worker;
- current: this checkout's grader in this process (pristine export cache warmed, as in training where every
  task is graded many times): host-side apply, policy, allowlist scan, fresh sandbox, launcher with the guard,
  trusted config and signed record.
Both grade the gold patch of each task (it must resolve on both), interleaved per task and rep, so machine load
hits both alike. Goal: p50 current <= 1.5x p50 baseline. A resolved grade runs its tests a second time (the blind
run, docs/sandbox.md): the current grader is also timed with it off, which is what every unresolved grade costs.

Usage: .venv/bin/python bench/grade.py [--reps 3] [--tasks 4] [--baseline-rev 8447573]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_RATIO = 1.5
WORKER = r"""
import json, logging, sys, time
logging.disable(logging.WARNING)
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.images import ensure_rootfs
from swerl.sandbox.schema import BwrapSettings, SandboxSettings
from swerl.sandbox.tasks import load_taskpack
pack, tasks = load_taskpack()
rows = {r.instance_id: r for r in pack.rows}
sb = BwrapSandbox(SandboxSettings(command_timeout_s=120, bwrap=BwrapSettings(rootfs=ensure_rootfs())))
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    iid = line.strip()
    t0 = time.perf_counter()
    ok = sb.grade(tasks[iid], pack.gold_patch(rows[iid])).resolved
    print(json.dumps({"s": time.perf_counter() - t0, "ok": ok}), flush=True)
"""


class Baseline:
    """The baseline revision's grader in a long-lived worker process (its own copy of the package)."""

    def __init__(self, rev: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="swerl-bench-base-"))
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "swerl"], capture_output=True, check=True)
        with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
            tar.extractall(self.dir, filter="data")
        env = {**os.environ, "PYTHONPATH": str(self.dir)}
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=self.dir, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert json.loads(self._read()).get("ready")

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("baseline worker died")
        return line

    def grade(self, instance_id: str) -> tuple[float, bool]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(instance_id + "\n")
        self.proc.stdin.flush()
        out = json.loads(self._read())
        return float(out["s"]), bool(out["ok"])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=4)
    ap.add_argument("--baseline-rev", default="8447573")
    args = ap.parse_args()

    import logging

    logging.disable(logging.WARNING)
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.images import ensure_rootfs
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings
    from swerl.sandbox.tasks import load_taskpack

    base = Baseline(args.baseline_rev)
    pack, tasks = load_taskpack()
    sb = BwrapSandbox(SandboxSettings(command_timeout_s=120, bwrap=BwrapSettings(rootfs=ensure_rootfs())))
    rows = list(pack.rows)[: args.tasks]
    before: list[float] = []
    after: list[float] = []
    single: list[float] = []  # the current grader without its blind run (what an unresolved grade costs)
    for rep in range(args.reps + 1):  # rep 0 warms both up (pristine export caches, page cache)
        for row in rows:
            task, gold = tasks[row.instance_id], pack.gold_patch(row)
            b, ok_old = base.grade(row.instance_id)
            a, ok_new = _timed(sb, task, gold, blind=True)
            s, ok_single = _timed(sb, task, gold, blind=False)
            if not (ok_old and ok_new and ok_single):
                print(f"{row.instance_id}: gold did not resolve (baseline {ok_old}, current {ok_new})", file=sys.stderr)
                return 1
            if rep:
                before.append(b)
                after.append(a)
                single.append(s)
    b50, a50, s50 = statistics.median(before), statistics.median(after), statistics.median(single)
    print(f"grading {len(rows)} tasks x {args.reps} reps (gold patches, bwrap), interleaved:")
    print(f"  baseline (@ {args.baseline_rev}) p50 {b50:.2f} s  mean {statistics.mean(before):.2f} s")
    print(f"  current, resolved (+ blind run) p50 {a50:.2f} s  mean {statistics.mean(after):.2f} s")
    print(f"  current, one run (blind off) p50 {s50:.2f} s  mean {statistics.mean(single):.2f} s")
    ratio, one = a50 / b50, s50 / b50
    print(f"BENCH grade_seconds_p50 {a50:.2f} s goal <={GOAL_RATIO * b50:.2f} {'met' if ratio <= GOAL_RATIO else 'missed'}")
    print(f"BENCH grade_vs_baseline_ratio {ratio:.2f} x goal <={GOAL_RATIO:g} {'met' if ratio <= GOAL_RATIO else 'missed'}")
    print(f"BENCH grade_one_run_vs_baseline_ratio {one:.2f} x goal <={GOAL_RATIO:g} "
          f"{'met' if one <= GOAL_RATIO else 'missed'}")
    return 0


def _timed(sb: object, task: object, patch: str, *, blind: bool) -> tuple[float, bool]:
    """One grade with the blind run on or off (a resolved grade runs its tests twice with it on)."""
    sb.settings.blind_run = blind  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    ok = sb.grade(task, patch).resolved  # type: ignore[attr-defined]
    return time.perf_counter() - t0, ok


if __name__ == "__main__":
    raise SystemExit(main())
