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

Usage: .venv/bin/python bench/guard_fp.py /tmp/fp/click:click:click/core.py,click/utils.py [...]
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


def _guarded(work: Path, changed: list[str]) -> tuple[dict[str, str], list[str]]:
    tests = sorted(str(p.relative_to(work)) for p in (work / "tests").rglob("*.py"))
    spec_dir = Path(tempfile.mkdtemp())
    record = work / ".swerl-record"
    spec = {"record": str(record), "key": os.urandom(16).hex(), "workdir": str(work), "changed": changed,
            "tests": tests, "private": [], "args": ["-rA", "-q", *PLUGINS_OFF, "tests"], "mode": "pytest"}
    (spec_dir / "spec.json").write_text(json.dumps(spec))
    # the work tree first on the path (as an editable install puts it), then the launcher exactly as graded
    boot = (f"import sys, runpy; sys.path.insert(0, {str(work)!r}); sys.argv = [{str(LAUNCHER)!r}, "
            f"{str(spec_dir / 'spec.json')!r}]; runpy.run_path(sys.argv[0], run_name='__main__')")
    run = subprocess.run([sys.executable, "-I", "-c", boot], cwd=work, capture_output=True, text=True)
    findings = []
    for line in record.read_text().splitlines() if record.exists() else []:
        if line.startswith("SWERL_WITNESS "):
            payload = json.loads(json.loads(line.split(" ", 1)[1])["payload"])
            if payload.get("kind") == "finding":
                findings.append(str(payload.get("data")))
    return _statuses(run.stdout), findings


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="+", help="DIR:PACKAGES:CHANGED (comma-separated packages and changed files)")
    args = ap.parse_args()
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
