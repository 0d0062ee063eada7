"""Honest false positives of the grading launcher's runtime layer (guard + witness) on real projects' test suites.

Skill measured: that the runtime rules refuse nothing an honest patch's test run does. Each suite runs twice in
the same process tree: plain pytest (the baseline) and the grading launcher (`swerl/sandbox/pytest_runner.py`,
audit-hook guard, strict asserts, signed record) with the named source files marked as changed by a patch (the
worst case: those files' code is "the patch's" in every rule). A finding in the signed record is a false positive
(nothing here is hostile); so is a test that passes plainly and fails under the launcher.

The suites are not bundled: clone them first, e.g.
    git clone https://github.com/more-itertools/more-itertools /tmp/fp/more-itertools
    git clone https://github.com/pallets/click /tmp/fp/click
    git clone https://github.com/python-attrs/attrs /tmp/fp/attrs
and name each as DIR:PACKAGES:CHANGED (a src/ layout is flattened so the launcher imports the tree, not an
installed copy; their test dependencies must be importable from this interpreter).

    BENCH guard_honest_findings <n> findings goal <=0
    BENCH guard_honest_outcome_flips <n> tests goal <=0

With `--commits N` the bench measures real honest fixes instead of the whole-file worst case: for each suite, the
last N commits that change the package's code (not merges, at most 200 changed lines), each graded as the grader
would grade it as a patch: the static scan of the changed files against the commit's parent, the tree at the commit,
the lines the commit wrote marked as the patch's (`grade.changed_code`), the suite run plainly and under the
launcher. A commit with a scan finding, a launcher finding or a flipped test is an honest fix the grader would
refuse:

    BENCH guard_honest_fix_refusal_rate <pct> % goal <=1

Usage: .venv/bin/python bench/guard_fp.py /tmp/fp/click:click:click/core.py,click/utils.py [...]
       .venv/bin/python bench/guard_fp.py --commits 5 /tmp/fp/click:click: [...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from swerl.sandbox.launch import verify_record  # the grader's own reading of the record

LAUNCHER = Path(__file__).resolve().parents[1] / "swerl" / "sandbox" / "pytest_runner.py"
PLUGINS_OFF = ["-p", "no:cacheprovider", "-p", "no:asyncio", "-p", "no:randomly", "-p", "no:xdist"]
_STATUS = re.compile(r"^(PASSED|FAILED|ERROR) (\S+)", re.M)


def _tree(repo: Path, packages: list[str]) -> Path:
    # not under the temp dir: the launcher seals the test files, and a new entry of a directory above a sealed file
    # is unreadable (a grading tree is read-only, and /tmp is never above it); the tests make theirs in /tmp
    base = Path.home() / ".cache" / "swerl" / "guard_fp"
    base.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="guardfp-", dir=base))
    shutil.copytree(repo, work, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))
    for p in packages:
        if (work / "src" / p).is_dir():
            shutil.copytree(work / "src" / p, work / p, dirs_exist_ok=True)
    return work


def _statuses(out: str) -> dict[str, str]:
    return {node: status for status, node in _STATUS.findall(out)}


def _plain(work: Path) -> dict[str, str]:
    run = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-q", *PLUGINS_OFF, "tests"], cwd=work,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(work)})
    return _statuses(run.stdout)


def _guarded(work: Path, changed: list[str], code: dict | None = None) -> tuple[dict[str, str], list[str]]:
    tests = sorted(str(p.relative_to(work)) for p in (work / "tests").rglob("*.py"))
    spec_dir = Path(tempfile.mkdtemp())
    record = work / ".swerl-record"
    spec = {"record": str(record), "key": os.urandom(16).hex(), "workdir": str(work), "changed": changed,
            "tests": tests, "private": [], "args": ["-rA", "-q", *PLUGINS_OFF, "tests"], "mode": "pytest",
            **{k: v for k, v in (code or {}).items() if k in ("lines", "originals", "tables")}}
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    # the work tree first on the path (as an editable install puts it), then the launcher exactly as graded
    boot = (f"import sys, runpy; sys.path.insert(0, {str(work)!r}); sys.argv = [{str(LAUNCHER)!r}, "
            f"{str(spec_dir / 'spec.json')!r}]; runpy.run_path(sys.argv[0], run_name='__main__')")
    run = subprocess.run([sys.executable, "-I", "-c", boot], cwd=work, capture_output=True, text=True)
    got, _ = verify_record(record.read_text() if record.exists() else "", spec["key"])
    # no signed final line: the launcher died or its record does not verify, and the grader pays nothing
    findings = [str(t) for t in got["tampering"]] if got is not None else ["no signed record (launcher failed)"]
    return _statuses(run.stdout), findings


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def _fixes(repo: Path, packages: list[str], n: int) -> list[tuple[str, list[str]]]:
    """The last `n` commits that change the packages' code: (commit, changed files as the flattened tree names
    them)."""
    out: list[tuple[str, list[str]]] = []
    for sha in _git(repo, "rev-list", "--no-merges", "--max-count=400", "HEAD").split():
        files, total = [], 0
        for line in _git(repo, "show", "--numstat", "--format=", sha).splitlines():
            added, removed, path = line.split("\t", 2)
            flat = path[4:] if path.startswith("src/") else path
            if flat.endswith(".py") and flat.split("/")[0] in packages and added != "-":
                files.append(flat)
                total += int(added) + int(removed)
        if files and total <= 200:
            out.append((sha, files))
        if len(out) == n:
            break
    return out


def _at(repo: Path, sha: str, packages: list[str]) -> Path:
    """The flattened tree of `repo` at `sha` (a worktree copy, so the clone is left as it was)."""
    snap = Path(tempfile.mkdtemp(prefix="guardfp-src-"))
    subprocess.run(f"git -C {repo} archive {sha} | tar -x -C {snap}", shell=True, check=True)
    try:
        return _tree(snap, packages)
    finally:
        shutil.rmtree(snap, ignore_errors=True)


def commits(suites: list[str], n: int) -> None:
    """Each suite's last `n` code-changing commits graded as honest patches (module docstring)."""
    sys.path.insert(0, str(LAUNCHER.parents[2]))
    from swerl.sandbox import tamper
    from swerl.sandbox.grade import changed_code

    graded = refused = 0
    print(f"{'suite':<32} {'commit':<10} {'lines':>5} {'tests':>6} {'flips':>6} {'findings':>9} {'scan':>5}")
    for suite in suites:
        repo, packages = Path(suite.split(":")[0]), suite.split(":")[1].split(",")
        for sha, files in _fixes(repo, packages, n):
            pristine, work = _at(repo, f"{sha}^", packages), _at(repo, sha, packages)
            try:
                tests = sorted(str(p.relative_to(work)) for p in (work / "tests").rglob("*.py"))
                code = changed_code(pristine, work, files, tests)
                try:  # the static scan first, as the grader runs it
                    scan = tamper.scan_tree(files, pristine, work, tests)
                except tamper.ScanTooCostly as exc:
                    scan = [str(exc)]
                plain = _plain(work)
                guarded, findings = _guarded(work, files, code)
            finally:
                shutil.rmtree(pristine, ignore_errors=True)
                shutil.rmtree(work, ignore_errors=True)
            flips = sorted(t for t, st in plain.items() if st == "PASSED" and guarded.get(t) != "PASSED")
            marked = sum(b - a + 1 for ranges in code["lines"].values() for a, b in ranges)
            graded += 1
            refused += bool(flips or findings or scan)
            print(f"{repo.name:<32} {sha[:10]:<10} {marked:>5} {len(plain):>6} {len(flips):>6} {len(findings):>9} "
                  f"{len(scan):>5}", flush=True)
            for f in scan[:3]:
                print(f"    scan: {f[:200]}")
            for f in findings[:3]:
                print(f"    finding: {f[:200]}")
            for t in flips[:3]:
                print(f"    flip: {t}")
    rate = 100.0 * refused / max(graded, 1)
    print(f"{refused} of {graded} honest commits refused")
    print(f"BENCH guard_honest_fix_refusal_rate {rate:.1f} % goal <=1 {'met' if rate <= 1 else 'missed'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="+", help="DIR:PACKAGES:CHANGED (comma-separated packages and changed files)")
    ap.add_argument("--commits", type=int, default=0, help="grade each suite's last N code-changing commits instead")
    args = ap.parse_args()
    if args.commits:
        commits(args.suites, args.commits)
        return
    total_findings = total_flips = 0
    print(f"{'suite':<20} {'tests':>6} {'plain pass':>10} {'flips':>6} {'findings':>9}")
    for suite in args.suites:
        repo, packages, changed = suite.split(":")
        work = _tree(Path(repo), packages.split(","))
        try:
            plain = _plain(work)
            guarded, findings = _guarded(work, changed.split(","))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        flips = sorted(n for n, s in plain.items() if s == "PASSED" and guarded.get(n) != "PASSED")
        total_findings += len(findings)
        total_flips += len(flips)
        passed = sum(s == "PASSED" for s in plain.values())
        print(f"{Path(repo).name:<20} {len(plain):>6} {passed:>10} {len(flips):>6} {len(findings):>9}")
        for f in findings[:5]:
            print(f"    finding: {f[:200]}")
        for n in flips[:5]:
            print(f"    flip: {n}")
    print(f"BENCH guard_honest_findings {total_findings} findings goal <=0 {'met' if total_findings <= 0 else 'missed'}")
    print(f"BENCH guard_honest_outcome_flips {total_flips} tests goal <=0 {'met' if total_flips <= 0 else 'missed'}")


if __name__ == "__main__":
    main()
