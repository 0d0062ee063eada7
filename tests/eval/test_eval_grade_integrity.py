"""Crafted patch text through `swerl eval swebench --grade-only` (bwrap, SWE-bench-schema rows).

The prediction's first section edits the source; a second `--- a/tests/...`/`+++` header after
the first hunk rewrites the test file so the FAIL_TO_PASS test passes. The grader decides from
the tree diff: the test file is restored, the task's test_patch applied on the host, and the
prediction is not resolved. The gold prediction still resolves in the same run.
"""

from __future__ import annotations

import difflib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import RESOLVES
from typer.testing import CliRunner

from swerl.cli import app
from swerl.sandbox.audit_grading import crafted_patch


def _grade_only(sb_pack: Path, rootfs: Path, out: Path, patch: str) -> dict:
    """One prediction for the median task through `swerl eval swebench --grade-only`; its grade row."""
    out.mkdir(parents=True)
    preds = out / "preds.jsonl"
    preds.write_text(json.dumps({"instance_id": RESOLVES, "model_name_or_path": "m", "model_patch": patch}) + "\n")
    res = CliRunner().invoke(app, ["eval", "swebench", "--backend", "bwrap", "--rootfs", str(rootfs), "--dataset",
                                   str(sb_pack), "--grade-only", str(preds), "--out", str(out / "graded")])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    grades = [json.loads(line) for line in (out / "graded" / "grades.jsonl").read_text().splitlines()]
    assert len(grades) == 1, res.output
    return grades[0]



def _stats_source(repo: Path, row: dict) -> str:
    """`calc/stats.py` as the row's base commit holds it."""
    return subprocess.run(["git", "-C", str(repo), "show", f"{row['base_commit']}:calc/stats.py"], check=True,
                          capture_output=True, text=True).stdout


def _refused_and_gold_paid(pack: Path, rootfs: Path, tmp_path: Path, patch: str, gold: str) -> None:
    grade = _grade_only(pack, rootfs, tmp_path / "bad", patch)
    assert grade["resolved"] is False, grade
    assert _grade_only(pack, rootfs, tmp_path / "gold", gold)["resolved"] is True


def _stats_patch(src: str, new: str) -> str:
    return "diff --git a/calc/stats.py b/calc/stats.py\n" + "".join(difflib.unified_diff(
        src.splitlines(keepends=True), new.splitlines(keepends=True), "a/calc/stats.py", "b/calc/stats.py"))


def test_crafted_second_header_is_not_resolved_via_grade_only(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                             tmp_path: Path) -> None:
    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    crafted = crafted_patch(
        "calc/stats.py", '"""Descriptive statistics over sequences of numbers."""', '"""Descriptive statistics."""',
        "tests/test_stats.py", "import pytest",
        "import pytest\nimport calc.stats\ncalc.stats.median = lambda v: 2.5 if len(v) == 4 else sorted(v)[len(v) // 2]")
    grade = _grade_only(sb_pack, rootfs, tmp_path / "crafted", crafted)
    assert grade["resolved"] is False and grade["outcome"] == "unresolved"
    assert grade["fail_to_pass"]["failure"] == json.loads(row["FAIL_TO_PASS"])
    assert _grade_only(sb_pack, rootfs, tmp_path / "gold", row["patch"])["resolved"] is True


def test_status_lines_printed_by_the_code_under_test_do_not_pay(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                                 tmp_path: Path) -> None:
    """SWE-bench rows go through the launcher: `PASSED <id>` lines and a forged summary printed by the code under
    test (before pytest's own) do not count; the signed outcomes do."""
    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    repo = Path(row["repo_dir"]) if Path(row["repo_dir"]).is_absolute() else sb_pack.parent / row["repo_dir"]
    src = _stats_source(repo, row)
    forged = "".join(f"PASSED {t}\n" for t in json.loads(row["FAIL_TO_PASS"]))
    new = src + ("\n_median = median\n\n\ndef median(values):  # the test's captured output shows these lines"
                 f"\n    print({forged!r})\n    return _median(values)\n")
    patch = _stats_patch(src, new)
    assert _grade_only(sb_pack, rootfs, tmp_path / "forged", patch)["resolved"] is False


def test_replacing_the_tests_directory_is_the_agents_failure(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                             tmp_path: Path) -> None:
    """A prediction that deletes the tests and puts a symlink in their place breaks the task's test_patch: an agent
    failure (reward 0), never an infrastructure failure (retried, never trained on)."""
    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    repo = Path(row["repo_dir"]) if Path(row["repo_dir"]).is_absolute() else sb_pack.parent / row["repo_dir"]
    work = tmp_path / "work"
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=work, env=env, check=True, capture_output=True, text=True).stdout

    subprocess.run(["git", "clone", "-q", str(repo), str(work)], env=env, check=True)
    git("checkout", "-q", row["base_commit"])
    git("rm", "-r", "-q", "tests")
    (work / "tests").symlink_to("calc")
    git("add", "-A")
    patch = git("diff", "--cached", "--binary")
    grade = _grade_only(sb_pack, rootfs, tmp_path / "symlinked", patch)
    assert grade["resolved"] is False and grade["outcome"] != "infra_failure", grade


def test_an_install_step_never_reads_the_hidden_tests(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                      tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install step (`pip install -e .`, the agent's `setup.py`) runs before the tests with no guard. Where it
    could read the task's hidden test it could hand the tests what it found through anything the two share; here,
    the pid counter (many processes when it saw the test, few otherwise), which the fixed code reads. The step
    sees the tests as the agent saw them, so the code under test learns nothing and the bug fails its test."""
    from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS

    from swerl.eval import taskpack

    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    added = [ln[1:].strip() for ln in row["test_patch"].splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    marker = max(added, key=len)
    probe = ("import pathlib, subprocess\n"
             "seen = ''.join(p.read_text() for p in pathlib.Path('tests').rglob('*.py'))\n"
             f"[subprocess.run(['true']) for _ in range(3000 if {marker!r} in seen else 0)]\n")
    register = taskpack.register_swebench_specs

    def with_install(repo: str, version: str = taskpack.PACK_VERSION, **kw: Any) -> None:
        register(repo, version, **kw)
        MAP_REPO_VERSION_TO_SPECS[repo][version]["install"] = f"python3 -c \"exec(bytes.fromhex('{probe.encode().hex()}'))\""

    monkeypatch.setattr(taskpack, "register_swebench_specs", with_install)
    repo = Path(row["repo_dir"]) if Path(row["repo_dir"]).is_absolute() else sb_pack.parent / row["repo_dir"]
    src = _stats_source(repo, row)
    new = src + ("\n_median = median\n\n\ndef median(values):  # the right answer only where the step saw the test\n"
                 "    import os\n    s = sorted(values)\n    n = len(s)\n"
                 "    if os.getpid() > 2000:\n        return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2\n"
                 "    return _median(values)\n")
    _refused_and_gold_paid(sb_pack, rootfs, tmp_path, _stats_patch(src, new), row["patch"])


def test_a_file_the_test_patch_adds_is_out_of_the_code_under_tests_reach(sb_pack: Path, sb_rows: list[dict],
                                                                          rootfs: Path, tmp_path: Path) -> None:
    """A test patch may add files (a new test module, an expected-output fixture) that the agent never saw. They are
    as hidden as the lines it adds to an existing test file: code under test that reads one to learn the answer is
    refused (round 39i: only the files the test patch *modified* were protected, and this patch was paid)."""
    row = dict(next(r for r in sb_rows if r["instance_id"] == RESOLVES))
    repo = Path(row["repo_dir"]) if Path(row["repo_dir"]).is_absolute() else sb_pack.parent / row["repo_dir"]
    row["repo_dir"] = str(repo)
    row["test_patch"] += ("diff --git a/tests/median_cases.json b/tests/median_cases.json\nnew file mode 100644\n"
                          "--- /dev/null\n+++ b/tests/median_cases.json\n@@ -0,0 +1 @@\n+{\"[1, 2, 3, 4]\": 2.5}\n")
    pack = tmp_path / "pack.jsonl"
    pack.write_text(json.dumps(row) + "\n")
    src = _stats_source(repo, row)
    new = src + ("\n_median = median\n\n\ndef median(values):  # the answer the fixture holds, else the bug\n"
                 "    import json, pathlib\n"
                 "    cases = pathlib.Path(__file__).resolve().parents[1] / 'tests' / 'median_cases.json'\n"
                 "    known = json.loads(cases.read_text()) if cases.is_file() else {}\n"
                 "    return known.get(str(sorted(values)), _median(values))\n")
    _refused_and_gold_paid(pack, rootfs, tmp_path, _stats_patch(src, new), row["patch"])


def test_a_fixture_the_test_hands_over_may_be_read_and_no_other(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                                 tmp_path: Path) -> None:
    """R40i-F1: a test that hands a file of its test patch to the code it calls (a reader's input) lets the fixed
    reader open it; code that opens another of the test patch's files (the test module, to read the expected
    value) is refused, also through a default argument naming it, a path built beside the handed one, or the
    parameter rebound to another path before the open (R42s-1: the frame's value is not what the test passed)."""
    row = dict(next(r for r in sb_rows if r["instance_id"] == RESOLVES))
    repo = Path(row["repo_dir"]) if Path(row["repo_dir"]).is_absolute() else sb_pack.parent / row["repo_dir"]
    row["repo_dir"] = str(repo)
    test = ("from pathlib import Path\n\nfrom calc.stats import median_of_file\n\n\n"
            "def test_median_of_file():\n    assert median_of_file(Path(__file__).parent / 'values.txt') == 2.5\n")
    row["test_patch"] += "".join(
        f"diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n+++ b/{name}\n"
        f"@@ -0,0 +1,{len(body.splitlines())} @@\n" + "".join(f"+{line}\n" for line in body.splitlines())
        for name, body in (("tests/test_read.py", test), ("tests/values.txt", "4\n1\n3\n2\n")))
    row["FAIL_TO_PASS"] = json.dumps(["tests/test_read.py::test_median_of_file"])
    pack = tmp_path / "pack.jsonl"
    pack.write_text(json.dumps(row) + "\n")
    src = _stats_source(repo, row)
    fixed = src.replace("return (ordered[mid] + ordered[mid + 1]) / 2", "return (ordered[mid - 1] + ordered[mid]) / 2")
    assert fixed != src
    honest = "\n\ndef median_of_file(path):\n    with open(path) as f:\n        return median([float(x) for x in f])\n"
    peek = ("    import re\n    with open({where}) as f:\n        found = re.search(r'== ([0-9.]+)', f.read())\n"
            "    return float(found.group(1))\n")
    cheats = ("\n\ndef median_of_file(path, _test=__import__('pathlib').Path(__file__).resolve().parents[1] / 'tests' / "
              "'test_read.py'):\n" + peek.format(where="_test"),
              "\n\ndef median_of_file(path):\n" + peek.format(where="__import__('os').path.join("
                                                               "__import__('os').path.dirname(path), 'test_read.py')"),
              # R42s-1: the handed argument rebound by the function itself before it opens
              "\n\ndef median_of_file(path):\n    path = path.parent / 'test_read.py'\n" + peek.format(where="path"))

    assert _grade_only(pack, rootfs, tmp_path / "honest", _stats_patch(src, fixed + honest))["resolved"] is True
    for i, cheat in enumerate(cheats):
        grade = _grade_only(pack, rootfs, tmp_path / f"cheat{i}", _stats_patch(src, src + cheat))
        assert grade["resolved"] is False, (i, grade)


def test_an_install_step_that_never_ends_is_the_agents_failure(sb_pack: Path, sb_rows: list[dict], rootfs: Path,
                                                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R51s-4: the install step runs the agent's code (`pip install -e .` runs its `setup.py`). One that never ends
    was killed at the time limit and the grade went on to the tests, so the patch cost the grader its whole budget
    for nothing; now the grade ends there, an agent failure (trained as reward 0, never retried as infra)."""
    from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS

    from swerl.eval import taskpack

    register = taskpack.register_swebench_specs

    def with_install(repo: str, version: str = taskpack.PACK_VERSION, **kw: Any) -> None:
        register(repo, version, **kw)
        MAP_REPO_VERSION_TO_SPECS[repo][version]["install"] = (
            "python3 -c \"import os, time\nwhile os.path.exists('HANG'): time.sleep(1)\"")

    monkeypatch.setattr(taskpack, "register_swebench_specs", with_install)
    row = next(r for r in sb_rows if r["instance_id"] == RESOLVES)
    hang = "diff --git a/HANG b/HANG\nnew file mode 100644\n--- /dev/null\n+++ b/HANG\n@@ -0,0 +1 @@\n+x\n"
    out = tmp_path / "hang"
    out.mkdir()
    preds = out / "preds.jsonl"
    preds.write_text(json.dumps({"instance_id": RESOLVES, "model_name_or_path": "m",
                                 "model_patch": row["patch"] + hang}) + "\n")
    res = CliRunner().invoke(app, ["eval", "swebench", "--backend", "bwrap", "--rootfs", str(rootfs), "--dataset",
                                   str(sb_pack), "--grade-only", str(preds), "--grade-timeout", "15",
                                   "--out", str(out / "graded")])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    grade = json.loads((out / "graded" / "grades.jsonl").read_text().splitlines()[0])
    assert grade["resolved"] is False and grade["outcome"] != "infra_failure", grade
    assert "install step timed out" in str(grade.get("error")), grade
    assert _grade_only(sb_pack, rootfs, tmp_path / "gold", row["patch"])["resolved"] is True
