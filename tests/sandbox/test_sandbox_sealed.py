"""Protected test files sealed by the kernel (`pytest_runner._seal_tests`, `swerl_guard.serve_sealed`).

The launcher reads the protected test files (and the conftest.py files on their way), then a Landlock ruleset denies
every later read of them to itself and to every process it starts. It goes on reading them only through servers
that raise the same `open` audit event the real call does, so the guard judges each read as before; a child process,
guarded or not, Python or not, cannot read them at all (rounds 44 and 46: an unchanged wrapper, a start-up variable,
a spawn worker, a program first on PATH each started the patch's code with no child guard).
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox.schema import SandboxTask

HERE = Path(__file__).resolve().parents[2] / "swerl" / "sandbox"

PROBE = r"""
import io, json, linecache, os, pathlib, subprocess, sys
sys.path.insert(0, HERE)
import pytest_runner, swerl_guard
work = sys.argv[1]
sources = pytest_runner._test_sources({"workdir": work, "tests": ["tests/test_a.py"]})
out = {"why": pytest_runner._seal_tests(sources), "sealed": sorted(os.path.relpath(p, work) for p in sources)}
swerl_guard.serve_sealed(sources)
del sources
test = os.path.join(work, "tests", "test_a.py")
out["served"] = [open(test).read(), open(test, "rb").read().decode(), pathlib.Path(test).read_text(),
                 io.open_code(test).read().decode(), "".join(linecache.getlines(test))]
try:
    os.open(test, os.O_RDONLY)
    out["os_open"] = "read"
except PermissionError:
    out["os_open"] = "denied"
def child(*argv):
    return subprocess.run(list(argv), capture_output=True, text=True)
out["cat_test"] = child("cat", test).returncode
out["cat_conftest"] = child("cat", os.path.join(work, "tests", "conftest.py")).returncode
out["cat_data"] = child("cat", os.path.join(work, "tests", "data.txt")).stdout
out["cat_code"] = child("cat", os.path.join(work, "pkg", "m.py")).stdout
out["cat_pyc"] = child("cat", os.path.join(work, "tests", "__pycache__", "test_a.cpython-311.pyc")).returncode
out["python_child"] = child(sys.executable, "-c", "open(%r).read()" % test).stderr.strip().splitlines()[-1:]
import tempfile
scratch = os.path.join(os.path.dirname(work), "scratch")  # made before the seal: new entries of a directory above
a, b = tempfile.mkdtemp(dir=scratch), tempfile.mkdtemp(dir=scratch)  # a sealed file get no rule (a tree is read-only)
with open(os.path.join(a, "f"), "w") as fh:
    fh.write("moved")
os.replace(os.path.join(a, "f"), os.path.join(b, "f"))  # between directories: denied by any ruleset not granting it
out["moved"] = open(os.path.join(b, "f")).read()
try:
    os.link(test, os.path.join(b, "alias.py"))
    out["link"] = open(os.path.join(b, "alias.py")).read()
except OSError as exc:
    out["link"] = exc.errno
sys.path.insert(0, os.path.join(work, "tests"))
import test_a
out["imported"] = test_a.X
print(json.dumps(out))
"""


def test_the_kernel_seals_the_test_files_from_every_other_reader(tmp_path: Path) -> None:
    """In the sealed process, `open` (text and bytes), pathlib, `io.open_code` (the import system) and linecache
    read the test file; `os.open` (no server) is refused; a child - `cat` or a Python with no guard - cannot read
    the test file, the conftest beside it or the compiled test, and reads the test data and the code as before;
    files still move between directories."""
    work = tmp_path / "work"
    (work / "tests" / "__pycache__").mkdir(parents=True)
    (work / "pkg").mkdir()
    (work / "tests" / "test_a.py").write_text("X = 42  # the expected value\n")
    (work / "tests" / "conftest.py").write_text("import os\n")
    (work / "tests" / "data.txt").write_text("input data\n")
    (work / "tests" / "__pycache__" / "test_a.cpython-311.pyc").write_bytes(b"X = 42")
    (work / "pkg" / "m.py").write_text("def g():\n    return 1\n")
    (tmp_path / "scratch").mkdir()
    done = subprocess.run([sys.executable, "-c", PROBE.replace("HERE", repr(str(HERE))), str(work)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["why"] == "", f"this kernel does not enforce Landlock: {out['why']}"
    assert out["sealed"] == ["tests/conftest.py", "tests/test_a.py"]
    assert out["served"] == ["X = 42  # the expected value\n"] * 5
    assert out["imported"] == 42
    assert out["os_open"] == "denied"
    assert out["cat_test"] != 0 and out["cat_conftest"] != 0 and out["cat_pyc"] != 0
    assert out["python_child"] and "Permission denied" in out["python_child"][0], out["python_child"]
    assert out["cat_data"] == "input data\n" and out["cat_code"].startswith("def g()")
    # a file moves between readable directories (R48s-FP1: `os.replace` from a temp dir into tmp_path), a sealed
    # one cannot be linked into one (the kernel refuses a move that would make it readable)
    assert out["moved"] == "moved" and out["link"] == 18, out["link"]


def test_serve_sealed_raises_the_open_event_for_the_resolved_file(tmp_path: Path) -> None:
    """What the guard judges is the file the store resolved, never a name the caller chose: asked by a relative,
    roundabout name, the event names the test file itself."""
    code = r"""
import os, sys
sys.path.insert(0, HERE)
import swerl_guard
seen = []
sys.addaudithook(lambda e, a: seen.append(a[0]) if e == "open" and "test_a" in str(a[0]) else None)
real = os.path.realpath(sys.argv[1])
swerl_guard.serve_sealed({real: b"X = 1\n"})
os.chdir(os.path.dirname(os.path.dirname(real)))
print(open("tests/../tests/./test_a.py").read() == "X = 1\n", seen == [real])
""".replace("HERE", repr(str(HERE)))
    (tmp_path / "tests").mkdir()
    test = tmp_path / "tests" / "test_a.py"
    test.write_text("X = 1\n")
    done = subprocess.run([sys.executable, "-c", code, str(test)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "True"], done.stdout


@pytest.mark.parametrize("backend", ["bwrap", "docker"])
def test_a_grade_seals_the_test_files(backend: str, request: pytest.FixtureRequest,
                                      calc_task: tuple[Any, SandboxTask]) -> None:
    """Through the real grader on each backend: the record says the kernel sealed the test files (docker's default
    seccomp profile lets Landlock through), and the honest fix still resolves, read through the servers."""
    from test_sandbox_launcher import BUG, FIX

    from swerl.sandbox import gradetree

    sandbox = request.getfixturevalue(f"{backend}_sandbox")
    task = calc_task[1]
    source = (gradetree.export_pristine(sandbox, task).tip / "calc" / "stats.py").read_text()
    diff = difflib.unified_diff(source.splitlines(keepends=True), source.replace(BUG, FIX).splitlines(keepends=True),
                                "a/calc/stats.py", "b/calc/stats.py")
    res = sandbox.grade(task, "diff --git a/calc/stats.py b/calc/stats.py\n" + "".join(diff))
    assert res.notes == ["test files sealed by the kernel"], res.notes
    assert res.resolved and not res.tampering, (res.tampering, res.tests, res.error)


def test_the_helpers_the_tests_import_are_sealed_with_them(tmp_path: Path) -> None:
    """The modules under a test directory that the protected tests import, absolutely or relatively, and what those
    import in turn, are sealed and guarded like the tests (R47s-2, R49s-2); the project's own modules are not."""
    from swerl.sandbox.launch import test_helpers

    files = {"tests/__init__.py": "", "tests/test_a.py": "from tests.cases import K\nfrom .helpers import h\n"
             "from a23lib import x\nfrom a23lib.testing import check\nimport tests.unit.deep_a\nfrom bare import B\n",
             "tests/cases.py": "from tests.deep import D\nK = 1\n", "tests/deep.py": "from tests.deeper import E\n",
             "tests/deeper.py": "E = 2\n", "tests/helpers.py": "def h():\n    pass\n", "tests/unit/deep_a.py": "",
             "tests/bare.py": "B = 1\n", "tests/conftest.py": "from tests.fixtures import F\n",
             "tests/fixtures.py": "F = 1\n", "tests/unused.py": "U = 3\n", "a23lib/__init__.py": "",
             "a23lib/x.py": "", "a23lib/testing/__init__.py": "def check():\n    pass\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    # three levels down (R50s-2), through the conftest (R50s-1), by a bare name from the test's directory (R50s-6);
    # not the package's own `testing` module (R50s-FP2), not a module nothing imports
    assert test_helpers(tmp_path, ["tests/test_a.py"]) == [
        "tests/bare.py", "tests/cases.py", "tests/deep.py", "tests/deeper.py", "tests/fixtures.py", "tests/helpers.py",
        "tests/unit/deep_a.py"]
