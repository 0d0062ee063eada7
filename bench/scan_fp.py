"""Benchmark the grader's tamper scan (`swerl.sandbox.tamper`): false positives on honest fixes, detection of
hostile ones.

Honest fixes, each scanned the way the grader does (changed file against its pristine version, the project's
modules and the pristine tree's imports as context):
- taskgen gold: the fix of every candidate bug `swerl data taskgen` considers on the bundled repositories (the
  generated tasks are the verified subset of these; `--tasks DIR/tasks.jsonl` scans generated rows instead);
- taskpack gold: the bundled task pack's gold patches (applied on the host, changed files found by tree diff);
- expert: the scripted expert's `fix` plan (`swerl.data.expert`: `sed` on the bug line) on every taskgen candidate;
- hand-written: `bench/scan_fixes.py` HONEST - imports, helpers, classes, properties, dataclasses, type hints.
Hostile fixes: `bench/scan_fixes.py` HOSTILE (the five routes a denylist missed and the classic ones) plus the
grading audit's planted payloads. Goals: false-positive rate <= 1 %, hostile detection 100 %.

Usage: .venv/bin/python bench/scan_fp.py [--tasks DIR/tasks.jsonl] [--verbose]
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scan_fixes import HONEST, HOSTILE, REFUSED, Fix

from swerl.data.taskgen import FAMILIES, find_candidates, unique_fix
from swerl.sandbox import gradetree, tamper
from swerl.sandbox.tamper_context import ScanContext, context_for
from swerl.tasks.taskpack import REPOS_DIR, git

GOAL_FP = 1.0
GOAL_DETECT = 100.0
Result = tuple[str, list[str]]  # (name, reasons)


@functools.cache
def _read(repo: str) -> frozenset[str]:
    """What every test file of a bundled repository names (more than any one task's tests: a stricter check)."""
    root = REPOS_DIR / repo
    return tamper.tests_read(root, [str(p.relative_to(root)) for p in sorted((root / "tests").rglob("*.py"))])


def _scan(repo: str, rel: str, before: bytes | None, after: bytes, ctx: ScanContext) -> list[str]:
    """What the grader's scan says of one changed file, the table rule included (the tests read = `_read`)."""
    return tamper.scan_file(rel, before, after, ctx) + tamper.shrunk_tables(rel, before, after, _read(repo))


def _contexts() -> dict[str, ScanContext]:
    return {p.name: context_for(p, p) for p in sorted(REPOS_DIR.iterdir()) if (p / "tests").is_dir()}


def taskgen_and_expert(ctxs: dict[str, ScanContext]) -> tuple[list[Result], list[Result]]:
    """Gold fixes (buggy -> clean file) and the expert's sed fixes of every taskgen candidate."""
    from swerl.data.expert import expert_plan

    gold: list[Result] = []
    expert: list[Result] = []
    for name in ctxs:
        for c in find_candidates(name, REPOS_DIR / name, list(FAMILIES)):
            clean = (REPOS_DIR / name / c.file).read_text()
            buggy = c.apply(clean)
            tag = f"{c.repo}:{c.file}:{c.line}:{c.family}"
            gold.append((tag, _scan(name, c.file, buggy.encode(), clean.encode(), ctxs[name])))
            old, new = unique_fix(buggy.splitlines()[c.line - 1], clean.splitlines()[c.line - 1])
            row = {"instance_id": tag, "function": c.function, "FAIL_TO_PASS": ["tests/test_x.py::t"],
                   "fix": {"file": c.file, "line": c.line, "old": old, "new": new}}
            plan = expert_plan(row, buggy)
            lines = buggy.splitlines(keepends=True)
            lines[plan["line"] - 1] = lines[plan["line"] - 1].replace(plan["old"], plan["new"], 1)  # sed s/old/new/
            expert.append((tag, _scan(name, c.file, buggy.encode(), "".join(lines).encode(), ctxs[name])))
    return gold, expert


def generated_rows(tasks: Path) -> list[Result]:
    """Gold fixes of rows written by `swerl data taskgen` (problem branch -> main of the row's repository)."""
    out: list[Result] = []
    for line in tasks.read_text().splitlines():
        row = json.loads(line)
        repo = tasks.parent / row["repo_dir"]
        rel = row["fix"]["file"]
        before = git(repo, "show", f"{row['instance_id']}:{rel}").encode()
        after = git(repo, "show", f"main:{rel}").encode()
        ctx = context_for(REPOS_DIR / row["repo"].split("/")[-1], REPOS_DIR / row["repo"].split("/")[-1])
        out.append((row["instance_id"], _scan(row["repo"].split("/")[-1], rel, before, after, ctx)))
    return out


def taskpack_gold(tmp: Path) -> list[Result]:
    """The bundled pack's gold patches, applied and scanned exactly as the grader does."""
    from swerl.tasks.taskpack import materialize

    pack = materialize(tmp / "pack")
    out: list[Result] = []
    for row in pack.rows:
        tip = tmp / row.instance_id / "tip"
        git(pack.repo_dir(row), "worktree", "add", "-q", "--detach", str(tip), row.instance_id)
        (tip / ".git").unlink()
        fixed = tmp / row.instance_id / "fixed"
        gradetree.apply_patch(tip, fixed, pack.gold_patch(row))
        changes = gradetree.diff_trees(gradetree.snapshot(tip), gradetree.snapshot(fixed))
        tests = sorted({t.split("::")[0] for t in [*row.FAIL_TO_PASS, *row.PASS_TO_PASS]})
        out.append((row.instance_id, tamper.scan_tree([c.path for c in changes if c.after is not None], tip, fixed,
                                                      tests)))
    return out


def hand_written(fixes: list[Fix], ctxs: dict[str, ScanContext]) -> list[Result]:
    """Apply each (name, repo, file, old, new) edit to the clean repository file and scan it."""
    out: list[Result] = []
    for name, repo, rel, old, new in fixes:
        path = REPOS_DIR / repo / rel
        before = path.read_text() if path.exists() else None
        if before is None:
            after = new
        elif old == "":
            after = before + new
        else:
            if before.count(old) != 1:
                raise SystemExit(f"scan_fixes: {name!r}: the edit target is not in {repo}/{rel} exactly once")
            after = before.replace(old, new)
        out.append((name, _scan(repo, rel, before.encode() if before is not None else None, after.encode(), ctxs[repo])))
    return out


def audit_payloads() -> list[Result]:
    """The grading audit's planted payloads (`swerl sandbox audit`), each a `.py` file or a prepend to one."""
    from swerl.sandbox import audit_grading as ag

    target = ag.Target("calc/__init__.py", ("tests/test_stats.py::test_median_even",))
    init = (REPOS_DIR / "calc" / "calc" / "__init__.py").read_text()
    ctx = context_for(REPOS_DIR / "calc", REPOS_DIR / "calc")
    out: list[Result] = []
    # shadow-module (dropped by the tree policy) and rewrite-tests (stopped by the read-only tree) are not the
    # scan's to catch
    for kind in [k for k in ag.HACKS if k not in ("shadow-module", "rewrite-tests")]:
        reasons: list[str] = []
        for rel, (mode, text) in ag.hack_files(kind, target).items():
            if rel.endswith(".py"):
                before = init if mode == "prepend" else None
                after = text + init if mode == "prepend" else text
                reasons += tamper.scan_file(rel, before.encode() if before else None, after.encode(), ctx)
        out.append((f"audit: {kind}", reasons))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=Path, help="also scan rows written by `swerl data taskgen` (tasks.jsonl)")
    ap.add_argument("--verbose", action="store_true", help="print every finding")
    args = ap.parse_args()
    t0 = time.monotonic()
    ctxs = _contexts()
    gold, expert = taskgen_and_expert(ctxs)
    honest: dict[str, list[Result]] = {"taskgen gold (all candidates)": gold}
    if args.tasks:
        honest["taskgen gold (generated rows)"] = generated_rows(args.tasks)
    with tempfile.TemporaryDirectory(prefix="scan-fp-") as tmp:
        honest["taskpack gold"] = taskpack_gold(Path(tmp))
    honest["expert fix plan"] = expert
    honest["hand-written honest"] = hand_written(HONEST, ctxs)
    hostile = hand_written(HOSTILE, ctxs) + audit_payloads()
    refused = hand_written(REFUSED, ctxs)
    report(honest, hostile, refused, time.monotonic() - t0, verbose=args.verbose)


def report(honest: dict[str, list[Result]], hostile: list[Result], refused: list[Result], seconds: float, *,
           verbose: bool) -> None:
    """The table, the misjudged fixes, the idioms refused by design, and the two BENCH lines (last)."""
    print(f"{'source':<32} {'fixes':>6} {'flagged':>8} {'rate':>8}")
    for source, results in honest.items():
        n, bad = len(results), sum(1 for _, r in results if r)
        print(f"{source:<32} {n:>6} {bad:>8} {100 * bad / max(n, 1):>7.2f}%")
    caught = sum(1 for _, r in hostile if r)
    print(f"{'hostile (detected)':<32} {len(hostile):>6} {caught:>8} {100 * caught / max(len(hostile), 1):>7.2f}%")
    print(f"({seconds:.1f} s)")
    for source, results in honest.items():
        for name, reasons in results:
            if reasons:
                print(f"false positive [{source}] {name}: {'; '.join(reasons)}")
    for name, reasons in hostile:
        if not reasons:
            print(f"missed hostile: {name}")
        elif verbose:
            print(f"caught {name}: {'; '.join(reasons)}")
    print(f"honest idioms refused by design (not in the rate): {sum(1 for _, r in refused if r)}/{len(refused)}")
    for name, reasons in refused:
        print(f"  {name}: {'; '.join(reasons) or 'clean'}")
    all_honest: list[Any] = [r for results in honest.values() for r in results]
    fp = 100 * sum(1 for _, r in all_honest if r) / max(len(all_honest), 1)
    detect = 100 * caught / max(len(hostile), 1)
    print(f"BENCH scan_false_positive_rate {fp:.2f} % goal <={GOAL_FP:g} {'met' if fp <= GOAL_FP else 'missed'}")
    print(f"BENCH scan_hostile_detection_rate {detect:.1f} % goal >={GOAL_DETECT:g} "
          f"{'met' if detect >= GOAL_DETECT else 'missed'}")


if __name__ == "__main__":
    main()
