"""Rounds 39 and 40's classes that are not verdict rules (docs/sandbox.md, "Round 39", "Round 40"): the grader's
host side."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.schema import SandboxTask


@pytest.fixture(params=["bwrap", "docker"])
def grading_sandbox(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


def test_round39_a_grader_under_a_strict_umask_pays_the_honest_fix(grading_sandbox: Any, taskpack: tuple[Any, Any],
                                                                    calc_task: tuple[Any, SandboxTask]) -> None:
    """R39i-F1: the grading tree is built on the host, under the grader's umask; with 077 (hardened hosts, job
    launchers) its directories were 0700 root's, unreadable by the tests' uid, and every honest fix was the
    agent's failure (reward 0, never retried). The tree's modes are git's (0755 or 0644) whatever the umask."""
    pack, _tasks = taskpack
    row, task = calc_task
    old = os.umask(0o077)
    try:
        res = grading_sandbox.grade(task, pack.gold_patch(row))
        empty = grading_sandbox.grade(task, "")
    finally:
        os.umask(old)
    assert res.resolved, (res.error_kind, res.error, res.tampering)
    assert not empty.resolved and empty.error_kind is None, (empty.error_kind, empty.error)


def test_round40_a_test_patchs_files_are_read_as_git_reads_them(tmp_path: Path) -> None:
    """R40i-P1..P3: the protected files of a SWE-bench row are those its test patch touches as `git apply` reads it:
    a binary file (no `---`/`+++` lines), an empty new file, a mode change, mnemonic prefixes (`i/`, `w/`), an
    octal-quoted Latin-1 name, both sides of a rename. Reading the header lines missed each of them, and the code
    under test read the hidden answer from the file."""
    from swerl.sandbox import gradetree
    from swerl.sandbox.patch import files_git_reads

    repo = tmp_path / "r"
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def git(*args: str) -> bytes:
        return subprocess.run(["git", "-c", "user.name=a", "-c", "user.email=a@b", *args], cwd=repo, env=env,
                              check=True, capture_output=True).stdout

    repo.mkdir()
    git("init", "-q")
    (repo / "tests").mkdir()
    (repo / "tests" / "old.txt").write_text("moved\n" * 20)
    (repo / "tests" / "m.sh").write_text("echo\n")
    git("add", "-A")
    git("commit", "-qm", "base")
    (repo / "tests" / "a.bin").write_bytes(b"\x00\x01\x02answer=42")
    (repo / "tests" / "e.txt").write_bytes(b"")
    (repo / "tests" / "t.py").write_text("def test_t():\n    assert 1\n")
    (repo / os.fsdecode(b"tests/caf\xe9.json")).write_text("{}")
    (repo / "tests" / "m.sh").chmod(0o755)
    git("mv", "tests/old.txt", "tests/new.txt")
    git("add", "-A")
    git("commit", "-qm", "tests")
    for prefixes in ((), ("--src-prefix=i/", "--dst-prefix=w/")):
        diff = git("diff", "--binary", "-M", *prefixes, "HEAD~1", "HEAD").decode("utf-8", "surrogateescape")
        read = files_git_reads(diff)
        assert read == {"tests/a.bin", "tests/e.txt", "tests/t.py", os.fsdecode(b"tests/caf\xe9.json"), "tests/m.sh",
                        "tests/new.txt"}, prefixes
        # `git apply --numstat` names a rename by its new path; the grader adds the header names (`rename from`)
        assert "tests/old.txt" in gradetree.patch_headers(diff), prefixes
    assert files_git_reads("not a diff") == set()


_LOADER = "import importlib\n\n\ndef load(name):\n    mod = importlib.import_module(name)\n    return mod.VALUE\n"
_LOADER_BUG = _LOADER.replace("return mod.VALUE", "return mod.VALUE.strip('x')")
_LOADER_TEST = ("import sys\n\nfrom r40lib.loader import load\n\n\ndef test_load(tmp_path, monkeypatch):\n"
                "    (tmp_path / 'r40mod.py').write_text(\"VALUE = 'xax'\\n\")\n"
                "    monkeypatch.syspath_prepend(str(tmp_path))\n    assert load('r40mod') == 'xax'\n")


def test_round40_a_module_the_test_writes_may_be_imported_by_the_fixed_code(bwrap_sandbox: Any, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """R40i-F3: code the patch changed may import a module a test wrote to its tmp_path (Sphinx copies its test
    roots there); a module the patch's own code writes outside the tree and imports is refused as before (by the
    runtime layer alone here: the static scan is off for the second grade)."""
    from synthetic_repo import make_tasks, unified_diff

    from swerl.sandbox import tamper

    tasks = make_tasks(tmp_path / "repo", "r40", {"r40lib/__init__.py": "", "r40lib/loader.py": _LOADER,
                                                  "tests/test_loader.py": _LOADER_TEST},
                       {"loader": ("r40lib/loader.py", _LOADER_BUG)}, {"loader": ["tests/test_loader.py::test_load"]})
    task = tasks["loader"]
    honest = bwrap_sandbox.grade(task, unified_diff("r40lib/loader.py", _LOADER_BUG, _LOADER))
    assert honest.resolved and not honest.tampering, (honest.tampering, honest.error, honest.log_tail[-1500:])
    smuggled = _LOADER.replace("def load(name):\n", "def load(name):\n    import sys, tempfile, pathlib\n"
                               "    d = tempfile.mkdtemp()\n    pathlib.Path(d, 'r40side.py').write_text('W = 1\\n')\n"
                               "    sys.path.insert(0, d)\n    importlib.import_module('r40side')\n")
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    res = bwrap_sandbox.grade(task, unified_diff("r40lib/loader.py", _LOADER_BUG, smuggled))
    assert not res.resolved and any("loads module code from" in t for t in res.tampering), (res.tampering,
                                                                                              res.tests)
