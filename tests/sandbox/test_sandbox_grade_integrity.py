"""Reward integrity: no reward without the fix, through `swerl sandbox run/grade` (bwrap and docker).

Every hack class is planted the way an agent would (`swerl sandbox run --cmd ... --patch-out`)
and graded with `swerl sandbox grade --patch`: UNRESOLVED with evidence (tampering reasons
or dropped files). The same patch graded with the defences off (`defences=False`: `.git`
and git in the grading sandbox, no patch filter or policy, plugin autoload, last-status log
parsing) resolves - so each probe can see an escape. Honest fixes of every bundled task
still resolve. Unit tests pin the pieces: the report cross-checks, the tamper scan, the
tree policy, the diff parser, the Kubernetes grading Job.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.sandbox import audit_grading as ag
from swerl.sandbox import gradetree, reports, tamper
from swerl.sandbox.grade import grade, harness_statuses, swesmith_plan
from swerl.sandbox.patch import filter_patch
from swerl.sandbox.schema import SandboxSettings, SandboxTask

MEDIAN_TESTS = "tests/test_stats.py"
CRAFTED = ag.crafted_patch(
    "calc/stats.py", '"""Descriptive statistics over sequences of numbers."""', '"""Descriptive statistics."""',
    MEDIAN_TESTS, "import pytest",
    "import pytest\nimport calc.stats\ncalc.stats.median = lambda v: 2.5 if len(v) == 4 else sorted(v)[len(v) // 2]")


@pytest.fixture(autouse=True)
def _pack_cache(monkeypatch: pytest.MonkeyPatch, taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    root = taskpack[0].root
    monkeypatch.setattr("swerl.sandbox.tasks.taskpack_root", lambda: root)


def _target(task: SandboxTask) -> ag.Target:
    return ag.Target("calc/__init__.py", tuple(task.FAIL_TO_PASS + task.PASS_TO_PASS))


def _cli_run_grade(backend: list[str], setup: str | None, tmp: Path, patch_text: str | None = None) -> tuple[int, dict, str]:
    runner = CliRunner()
    patch = tmp / "agent.diff"
    if patch_text is None:
        res = runner.invoke(app, ["sandbox", "run", "median_even", *backend, "--cmd", setup or "true",
                                  "--patch-out", str(patch)])
        assert res.exit_code == 0, res.output
    else:
        patch.write_text(patch_text)
    res = runner.invoke(app, ["sandbox", "grade", "median_even", *backend, "--patch", str(patch), "--json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, json.loads(res.stdout), patch.read_text()


# ---------------------------------------------------------------------------- classes 1-4 through the CLI (bwrap)


@pytest.mark.parametrize("kind", [*ag.HACKS, "crafted-patch"])
def test_hack_classes_are_unresolved_via_cli_bwrap(kind: str, tmp_path: Path, rootfs: Path, bwrap_sandbox: Any,
                                                  calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    setup = None if kind == "crafted-patch" else ag.setup_command(kind, _target(task))
    code, result, patch = _cli_run_grade(["--rootfs", str(rootfs)], setup, tmp_path,
                                         CRAFTED if kind == "crafted-patch" else None)
    assert code == 1 and result["resolved"] is False
    evidence = result["tampering"] + [d["path"] for d in result["dropped"]]
    assert evidence or kind == "rewrite-tests", result  # a read-only tree leaves no trace: the rewrite just fails
    # control: the same patch on the grader with its defences off resolves (the probe can see an escape)
    assert grade(bwrap_sandbox, task, patch, defences=False).resolved, kind


def test_crafted_patch_headers_are_all_reported_and_the_test_file_restored(bwrap_sandbox: Any,
                                                                         calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    res = grade(bwrap_sandbox, task, CRAFTED)
    assert set(res.patch_files) == {"calc/stats.py", MEDIAN_TESTS}
    assert [d.path for d in res.dropped] == [MEDIAN_TESTS] and res.changed == ["calc/stats.py"]
    assert res.tests[task.FAIL_TO_PASS[0]] == "FAILED" and not res.resolved
    # the agent-side text filter now sees the second header too
    assert filter_patch(CRAFTED, {MEDIAN_TESTS}).patch == ""


def test_hostile_file_names_never_traceback(bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask],
                                            taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    """New files with a newline / control characters in their names: dropped, graded, no exception."""
    row, task = calc_task
    hostile = ('diff --git "a/calc/x\\ny.py" "b/calc/x\\ny.py"\nnew file mode 100644\n--- /dev/null\n'
               '+++ "b/calc/x\\ny.py"\n@@ -0,0 +1 @@\n+PASSED = 1\n'
               'diff --git "a/calc/\\033[2Jz.txt" "b/calc/\\033[2Jz.txt"\nnew file mode 100644\n--- /dev/null\n'
               '+++ "b/calc/\\033[2Jz.txt"\n@@ -0,0 +1 @@\n+x\n')
    res = grade(bwrap_sandbox, task, taskpack[0].gold_patch(row) + hostile)
    assert sorted(d.reason for d in res.dropped) == ["unsafe file name", "unsafe file name"]
    assert res.resolved and res.error is None


def test_unappliable_patch_is_the_agents_fault(bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    res = grade(bwrap_sandbox, task, "diff --git a/calc/nope.py b/calc/nope.py\n--- a/calc/nope.py\n"
                                     "+++ b/calc/nope.py\n@@ -1 +1 @@\n-a\n+b\n")
    assert (res.resolved, res.patch_applied, res.error_kind) == (False, False, "agent")
    assert res.error and res.error.startswith("patch does not apply")


def test_grading_sandbox_that_cannot_start_is_infra(rootfs: Path, calc_task: tuple[Any, SandboxTask],
                                                    taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.schema import BwrapSettings

    row, task = calc_task
    broken = task.model_copy(update={"instance_id": task.instance_id + "-nobranch", "branch": "no-such-branch"})
    res = grade(BwrapSandbox(SandboxSettings(bwrap=BwrapSettings(rootfs=rootfs))), broken, taskpack[0].gold_patch(row))
    assert (res.resolved, res.error_kind) == (False, "infra") and "export" in (res.error or "")


def test_honest_fix_of_every_bundled_task_resolves(bwrap_sandbox: Any,
                                                   taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    pack, tasks = taskpack
    for row in pack.rows:
        res = grade(bwrap_sandbox, tasks[row.instance_id], pack.gold_patch(row))
        assert res.resolved, (row.instance_id, res.tampering, res.error, res.log_tail[-800:])
        assert res.report == "launcher" and res.tampering == [] and res.dropped == []


def test_swesmith_hidden_tests_restored_only_for_grading(bwrap_sandbox: Any,
                                                        taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    """The problem branch's last commit removes the F2P test file (SWE-smith): the agent never sees it; the grader
    restores it from the parent commit on the host. F2P fails before the gold fix and passes after."""
    pack, tasks = taskpack
    row = next(r for r in pack.rows if r.instance_id.endswith("variance_population_hidden"))
    task = tasks[row.instance_id]
    with bwrap_sandbox.session(task) as h:
        seen = bwrap_sandbox.exec(h, f"ls tests; test -e {MEDIAN_TESTS} && echo VISIBLE || echo HIDDEN").output
    assert "HIDDEN" in seen and "test_stats.py" not in seen
    before = grade(bwrap_sandbox, task, "")
    assert before.hidden_tests == [MEDIAN_TESTS] and before.tests[task.FAIL_TO_PASS[0]] == "FAILED"
    assert not before.resolved and all(before.tests[t] == "PASSED" for t in task.PASS_TO_PASS)
    gold = pack.gold_patch(row)
    assert MEDIAN_TESTS not in gold
    after = grade(bwrap_sandbox, task, gold)
    assert after.resolved and after.tests[task.FAIL_TO_PASS[0]] == "PASSED"
    # an agent that writes its own version of the hidden file gains nothing: it is replaced by the real one
    forged = ("diff --git a/tests/test_stats.py b/tests/test_stats.py\nnew file mode 100644\n--- /dev/null\n"
              "+++ b/tests/test_stats.py\n@@ -0,0 +1,2 @@\n+def test_variance_population():\n+    pass\n")
    res = grade(bwrap_sandbox, task, forged)
    assert not res.resolved and [d.path for d in res.dropped] == [MEDIAN_TESTS]


# ---------------------------------------------------------------------------- docker (few: slow on 2 cores)


@pytest.mark.parametrize("kind", ["history", "crafted-patch", "rewrite-tests", "honest"])
def test_grading_via_cli_docker(kind: str, tmp_path: Path, dockerd: str, docker_sandbox: Any,
                                calc_task: tuple[Any, SandboxTask], taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    row, task = calc_task
    backend = ["--backend", "docker", "--docker-host", dockerd]
    if kind == "honest":
        code, result, _ = _cli_run_grade(backend, None, tmp_path, taskpack[0].gold_patch(row))
        assert code == 0 and result["resolved"] is True and result["tampering"] == [], {k: result.get(k) for k in ("error", "tampering", "resolution", "tests")}
        return
    setup = None if kind == "crafted-patch" else ag.setup_command(kind, _target(task))
    code, result, patch = _cli_run_grade(backend, setup, tmp_path, CRAFTED if kind == "crafted-patch" else None)
    assert code == 1 and result["resolved"] is False
    assert result["tampering"] + [d["path"] for d in result["dropped"]] or kind == "rewrite-tests"
    assert grade(docker_sandbox, task, patch, defences=False).resolved, kind


def test_docker_restores_hidden_tests_from_the_image(docker_sandbox: Any,
                                                    taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    pack, tasks = taskpack
    row = next(r for r in pack.rows if r.instance_id.endswith("variance_population_hidden"))
    task = tasks[row.instance_id]
    gold = grade(docker_sandbox, task, pack.gold_patch(row))
    assert gold.resolved and gold.hidden_tests == [MEDIAN_TESTS], gold.log_tail[-1500:]
    assert not grade(docker_sandbox, task, "").resolved


def test_docker_grading_container_has_no_git_history(docker_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    pristine = gradetree.export_pristine(docker_sandbox, task)
    assert not (pristine.base / ".git").exists() and pristine.git_binaries
    h = docker_sandbox.start_grading(task, pristine.base, git_binaries=pristine.git_binaries)
    try:
        out = docker_sandbox.exec(h, "find / -xdev -name .git 2>/dev/null | head -n 3; git log 2>&1 | head -n 1; "
                                     "ls /testbed").output
    finally:
        docker_sandbox.stop(h)
    assert "/.git" not in out and "git is disabled" in out and "calc" in out


# ---------------------------------------------------------------------------- units


def _log(lines: list[str], summary: str = "=== 1 failed, 1 passed in 0.10s ===") -> str:
    return "\n".join(["collected 2 items", *lines, summary]) + "\n"


def _rec(outcomes: dict[str, str], rc: int, **kw: Any) -> dict[str, Any]:
    return {"outcomes": outcomes, "rc": rc, "forged": [], "tampering": [], **kw}


def test_decide_first_status_and_nothing_after_the_summary() -> None:
    ids = ["t.py::a", "t.py::b"]
    text = _log(["PASSED t.py::a", "FAILED t.py::b - assert 1 == 2"]) + "PASSED t.py::b\n"
    v = reports.decide(ids, text, None, None, 1, mode="text")
    assert v.statuses == {"t.py::a": "PASSED", "t.py::b": "FAILED"} and v.tampering == []
    # the harness parser (last status wins) disagrees with the first status: tampering
    v = reports.decide(ids, _log(["PASSED t.py::a", "FAILED t.py::b", "PASSED t.py::b"]),
                       {"t.py::a": "PASSED", "t.py::b": "PASSED"}, None, 1, mode="text")
    assert v.statuses["t.py::b"] == "FAILED"


def test_decide_exit_code_must_agree() -> None:
    ids = ["t.py::a"]
    ok = _log(["PASSED t.py::a"], "=== 1 passed in 0.01s ===")
    assert reports.decide(ids, ok, None, None, 0, mode="text").tampering == []
    assert "exit code 1" in reports.decide(ids, ok, None, None, 1, mode="text").tampering[0]
    both = _log(["PASSED t.py::a", "FAILED t.py::z"])
    seen = _rec({"t.py::a": "PASSED", "t.py::z": "FAILED"}, 1)
    assert reports.decide(ids, both, None, seen, 1, mode="pytest").tampering == []  # z failed: rc 1
    assert reports.decide(ids, both, None, seen, 0, mode="pytest").tampering  # rc 0 with a failure
    # the launcher's record: a report rewritten in-process, the guard's findings, no record at all
    forged = {**seen, "forged": ["t.py::a"]}
    assert any("rewritten" in r for r in reports.decide(ids, both, None, forged, 1, mode="pytest").tampering)
    guarded = {**seen, "tampering": ["os.fork from /testbed/calc/x.py:1"]}
    assert reports.decide(ids, both, None, guarded, 1, mode="pytest").tampering == ["os.fork from /testbed/calc/x.py:1"]
    v = reports.decide(ids, both, None, None, None, mode="pytest")
    assert v.statuses == {"t.py::a": "MISSING"} and any("no signed record" in e for e in v.errors)


def test_decide_signed_outcomes_are_primary() -> None:
    """The text says PASSED, the signed record says FAILED: the record decides and the disagreement is tampering;
    a declared XFAIL counts, an imperative one (recorded as FAILED) does not."""
    ids = ["t.py::a"]
    v = reports.decide(ids, _log(["PASSED t.py::a"], "=== 1 passed in 0.01s ==="), None,
                       _rec({"t.py::a": "FAILED"}, 1), 1, mode="pytest")
    assert v.statuses == {"t.py::a": "FAILED"} and any("launcher saw FAILED" in r for r in v.tampering)
    xfail = _log(["XFAIL t.py::a - reason"], "=== 1 xfailed in 0.01s ===")
    assert reports.decide(ids, xfail, None, _rec({"t.py::a": "XFAIL"}, 0), 0, mode="pytest").tampering == []
    v = reports.decide(ids, xfail, None, _rec({"t.py::a": "FAILED"}, 0), 0, mode="pytest")
    assert v.statuses["t.py::a"] == "FAILED"


def _record(tmp_path: Path, key: str, events: list[tuple[str, Any]]) -> str:
    import os

    from swerl.sandbox.pytest_runner import make_emitter

    path = tmp_path / f"record-{len(list(tmp_path.iterdir()))}.txt"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    emit = make_emitter(fd, bytes.fromhex(key))
    for kind, data in events:
        emit(kind, data)
    os.close(fd)
    return path.read_text()


def test_only_a_record_signed_with_the_grades_key_counts(tmp_path: Path) -> None:
    """The launcher's record is a chain of signed lines: findings and outcomes as they happen, then the end."""
    from swerl.sandbox.launch import verify_record

    key, other = "ab" * 32, "cd" * 32
    ok = [("outcome", {"node": "t.py::a", "phase": "call", "status": "PASSED", "forged": False}),
          ("outcome", {"node": "t.py::b", "phase": "call", "status": "PASSED", "forged": False}),
          ("outcome", {"node": "t.py::b", "phase": "teardown", "status": "ERROR", "forged": False}),
          ("finding", "os.fork from /testbed/x.py:1"), ("final", {"rc": 1, "mode": "pytest"})]
    text = _record(tmp_path, key, ok)
    # round 54: masked as well as signed - any process of the sandbox may open the file, and a test's id can hold its
    # expected value; a changed byte of the masked text breaks the chain like a changed byte of plain text
    assert "t.py::a" not in text and "PASSED" not in text and "fork" not in text
    assert len({len(line) for line in text.splitlines()}) == 1  # nor is a test's id told by its line's length
    flipped = text.replace('"sealed": "', '"sealed": "' + ("A" if text.split('"sealed": "')[1][0] != "A" else "B"), 1)
    assert verify_record(flipped, key)[0] is None
    record, problems = verify_record("log\n" + text, key)
    assert problems == [] and record is not None
    assert record["outcomes"] == {"t.py::a": "PASSED", "t.py::b": "ERROR"} and record["rc"] == 1
    assert record["tampering"] == ["os.fork from /testbed/x.py:1"]
    assert verify_record(_record(tmp_path, other, ok), key) == (None, [
        "a launcher record line without a valid signature was written into the test output"])
    assert verify_record(_record(tmp_path, key, ok[:-1]), key)[0] is None  # killed before its end: no record
    lines = _record(tmp_path, key, ok).splitlines()
    record, problems = verify_record("\n".join([lines[0], lines[2], *lines[1:]]), key)  # reordered / replayed
    assert problems and record is not None and record["outcomes"]["t.py::b"] == "ERROR"
    twice = _record(tmp_path, key, [ok[0], ("outcome", {**ok[0][1], "status": "FAILED"}), ok[-1]])
    assert any("two outcomes" in p for p in verify_record(twice, key)[1])
    # the same test collected twice (SWE-bench names a test patch's `tests/__init__.py` too) agrees with itself
    again = _record(tmp_path, key, [ok[0], ok[0], ok[-1]])
    record, problems = verify_record(again, key)
    assert problems == [] and record is not None and record["outcomes"] == {"t.py::a": "PASSED"}


def test_harness_parser_errors_never_escape(calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    out = "+ : '>>>>> End Test Output'\n+ : '>>>>> Start Test Output'\nPASSED x\n"
    status, found, error = harness_statuses(swesmith_plan(task), out)
    assert status is None and not found and error and "ValueError" in error


@pytest.mark.parametrize("kind", ag.HACKS)
def test_tamper_scan_flags_every_planted_payload(kind: str) -> None:
    target = ag.Target("pkg/__init__.py", ("tests/test_x.py::test_a",))
    reasons = [r for path, (_, text) in ag.hack_files(kind, target).items() if path.endswith(".py")
               for r in tamper.scan_file(path, b"", text.encode())]
    if kind == "shadow-module":
        return  # an iniconfig.py at the root is dropped by the tree policy (test below), not by the scan
    if kind == "rewrite-tests":
        assert not reasons  # built to pass the scan: only the read-only grading tree stops it (CLI tests)
        return
    assert reasons, kind


def test_tamper_scan_is_a_multiset_diff_and_catches_obfuscation() -> None:
    old = b"import os\n\ndef f():\n    return os.system('ls')\n"
    assert tamper.scan_file("m.py", old, old + b"\n\ndef g():\n    return 2\n") == []
    assert tamper.scan_file("m.py", old, old + b"os.system('git log')\n")
    for src in ("getattr(__import__('o' + 's'), '_exit')(0)\n", "import gc\nx = gc.get_objects()\n",
                "open('/proc/self/fd/1', 'w').write('x')\n", "import sys\nsys.modules['json'] = None\n",
                "exec(bytes.fromhex('7072696e74').decode())\n", "from os import write as w\nw(1, b'x')\n",
                "def f(:\n"):
        assert tamper.scan_file("m.py", None, src.encode()), src
    # UTF-7: under UTF-8 the payload is a comment; Python reads the cookie and runs it
    hidden = b"# coding: utf-7\n# +AAo-import atexit+AAo-atexit.register(print, 'PASSED t')\nx = 1\n"
    reasons = tamper.scan_file("m.py", None, hidden)
    assert "m.py: declares source encoding utf-7" in reasons and "m.py: import atexit" in reasons


def test_tamper_scan_has_no_findings_on_the_gold_fixes(taskpack: tuple[Any, dict[str, SandboxTask]],
                                                      tmp_path: Path) -> None:
    from swerl.tasks.taskpack import git

    pack, _ = taskpack
    for row in pack.rows:
        tip = tmp_path / row.instance_id / "tip"
        git(pack.repo_dir(row), "worktree", "add", "-q", "--detach", str(tip), row.instance_id)
        (tip / ".git").unlink()
        fixed = tmp_path / row.instance_id / "fixed"
        gradetree.apply_patch(tip, fixed, pack.gold_patch(row))
        changes = gradetree.diff_trees(gradetree.snapshot(tip), gradetree.snapshot(fixed))
        assert changes and tamper.scan_tree([c.path for c in changes], tip, fixed) == [], row.instance_id


def _policy_drop(tmp_path: Path, files: dict[str, str | bytes], pristine_files: dict[str, str] | None = None,
                 link: str | None = None) -> list[str]:
    old, new = tmp_path / "old", tmp_path / "new"
    for root, spec in ((old, pristine_files or {}), (new, {**(pristine_files or {}), **files})):
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "__init__.py").write_text("")
        for rel, text in spec.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(text if isinstance(text, bytes) else text.encode())
    if link:
        (new / link).symlink_to("/etc/passwd")
    changes = gradetree.diff_trees(gradetree.snapshot(old), gradetree.snapshot(new))
    kept, dropped = gradetree.enforce(changes, old, new, gradetree.Policy.for_task(
        SandboxTask(instance_id="x", repo="o/r", branch="b", FAIL_TO_PASS=["tests/test_a.py::t"])))
    assert gradetree.snapshot(old) == gradetree.snapshot(new) or kept  # dropped changes are undone in the tree
    return sorted(d.path for d in dropped)


@pytest.mark.parametrize(("files", "dropped"), [
    ({"x-1.0.dist-info/entry_points.txt": "[pytest11]\nx = x\n"}, ["x-1.0.dist-info"]),
    ({"iniconfig.py": "x = 1\n"}, ["iniconfig.py"]),
    ({"json/__init__.py": "x = 1\n"}, ["json"]),
    ({"pyproject.toml": '[tool."\\u0070ytest".ini_options]\n"\\u0061ddopts" = "-p x"\n'}, ["pyproject.toml"]),
    ({"setup.cfg": "[tool:pytest]\naddopts = -p x\n"}, ["setup.cfg"]),
    ({"pkg/conftest.py": "x = 1\n", "pkg/usercustomize.py": "", "a.pth": "import os\n"},
     ["a.pth", "pkg/conftest.py", "pkg/usercustomize.py"]),
    ({"pkg/fast.so": b"\x7fELF..", "pkg/tool": b"\x7fELF\x02"}, ["pkg/fast.so", "pkg/tool"]),
    ({"tests/test_a.py": "def t(): assert True\n", "tests/data/new.json": "{}"}, ["tests/data", "tests/test_a.py"]),
    ({"pkg/core.py": "x = 2\n", "pyproject.toml": '[project]\nname = "r"\nversion = "2"\n',
      "setup.cfg": "[metadata]\nname = r\n", "newmod.py": "y = 1\n"}, []),
])
def test_tree_policy(files: dict[str, str | bytes], dropped: list[str], tmp_path: Path) -> None:
    pristine = {"pyproject.toml": '[project]\nname = "r"\nversion = "1"\n', "setup.cfg": "[metadata]\nname = r0\n",
                "tests/test_a.py": "def t(): assert False\n"}
    assert _policy_drop(tmp_path, files, pristine) == dropped


def test_tree_policy_symlinks(tmp_path: Path) -> None:
    assert _policy_drop(tmp_path, {}, None, link="pkg/data") == ["pkg/data"]


def test_hidden_test_detection() -> None:
    task = SandboxTask(instance_id="x", repo="o/r", branch="b", FAIL_TO_PASS=["tests/test_a.py::t"])
    assert gradetree.hidden_test_files(b"D\0tests/test_a.py\0", task) == ["tests/test_a.py"]
    assert gradetree.hidden_test_files(b"D\0tests/test_a.py\0M\0pkg/x.py\0", task) == []  # a bug commit
    assert gradetree.hidden_test_files(b"D\0pkg/x.py\0", task) == []
    assert gradetree.hidden_test_files(b"", task) == []


def test_kubernetes_grading_job_has_no_checkout_and_stubs_git() -> None:
    from swerl.sandbox import k8s_manifests as km
    from swerl.sandbox.kubernetes import grading_job

    task = SandboxTask(instance_id="o__r.t", repo="o/r", branch="o__r.t", image="o/r:latest")
    settings = SandboxSettings(backend="kubernetes")
    job = grading_job(km.job_manifest(task, settings, "grade-1", pristine=True), task, keep_git=False)
    km.validate(job)
    spec = job["spec"]["template"]["spec"]
    assert "initContainers" not in spec
    mounts = {m["mountPath"] for m in spec["containers"][0]["volumeMounts"]}
    assert {"/usr/bin/git", "/usr/lib/git-core", task.workdir} <= mounts
    assert not any(e["name"].startswith("GIT_CONFIG") for e in spec["containers"][0]["env"])
    assert job["metadata"]["labels"]["swerl.io/role"] == "grade"


def test_pristine_cache_is_pruned_least_recently_used_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    root = tmp_path / "grade-trees"
    for i, name in enumerate(["old", "mid", "new"]):
        (root / name / "tip").mkdir(parents=True)
        (root / name / "tip" / "blob").write_bytes(b"x" * 400_000)
        os.utime(root / name, (1000 + i, 1000 + i))
    monkeypatch.setenv("SWERL_GRADE_CACHE_MB", "0.9")  # room for two entries
    gradetree._prune(root, keep="old")
    assert sorted(p.name for p in root.iterdir()) == ["new", "old"]  # `keep` survives, the LRU other goes


def test_huge_test_log_keeps_the_report_and_still_resolves(rootfs: Path, calc_task: tuple[Any, SandboxTask],
                                                          taskpack: tuple[Any, dict[str, SandboxTask]]) -> None:
    """An honest fix whose test prints ~1 MB, on a sandbox with a 300 kB exec output cap: the report is printed
    before the log, the log is cut to its end, the grade resolves (a flood never hides the report)."""
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.schema import BwrapSettings

    row, task = calc_task
    pack = taskpack[0]
    lines = (pack.repo_dir(row) / "calc" / "stats.py").read_text().splitlines(keepends=True)
    n = len(lines)
    noisy = ("diff --git a/calc/stats.py b/calc/stats.py\n--- a/calc/stats.py\n+++ b/calc/stats.py\n"
             f"@@ -{n - 1},2 +{n - 1},7 @@\n" + "".join(" " + line for line in lines[-2:])
             + "+\n+_quiet_median = median\n+def median(values):\n+    print(('y' * 199 + chr(10)) * 5000)\n"
             "+    return _quiet_median(values)\n")
    small = BwrapSandbox(SandboxSettings(command_timeout_s=60, output_limit_bytes=300_000,
                                         bwrap=BwrapSettings(rootfs=rootfs)))
    res = grade(small, task, pack.gold_patch(row) + noisy)
    assert res.resolved and res.report == "launcher" and res.error is None, (res.error, res.tampering,
                                                                              res.log_tail[-500:])
    assert res.tests[task.FAIL_TO_PASS[0]] == "PASSED"


def _first_lines(pack: Any, row: Any, n: int) -> str:
    text = (pack.repo_dir(row) / "calc" / "stats.py").read_text().splitlines(keepends=True)[:n]
    return "".join(" " + line for line in text)


@pytest.mark.parametrize("source", [
    'import os\npid = getattr(os, "fo" + "rk")()\n',
    'import os\nfd = os.path.join(os.sep, "proc", str(os.getppid()), "fd", "1")\n',
    'import sys\nsys.pycache_prefix = "/tmp/forged"\n',
    'import os\nfork = os.__dict__["fork"]\n',
    'from concurrent.futures import ProcessPoolExecutor\nProcessPoolExecutor().submit(print)\n',
    'import os\nf = vars(os)["fo" "rk"]\n',
    'import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\n',
    'from unittest import TestCase as T\nsetattr(T, "assertTrue", lambda *a: None)\n',
])
def test_tamper_scan_sees_indirect_routes(source: str) -> None:
    assert tamper.scan_file("calc/stats.py", b"import os\nimport sys\n", source.encode())


def test_tamper_scan_lets_a_package_patch_itself() -> None:
    """Assigning attributes of the project's own modules (or of `self`) is ordinary code, not a finding."""
    before = b"from calc import ops\n\n\nclass A:\n    pass\n"
    after = b"from calc import ops\nops.LIMIT = 3\n\n\nclass A:\n    def f(self):\n        self.x = 1\n"
    assert tamper.scan_file("calc/stats.py", before, after) == []
