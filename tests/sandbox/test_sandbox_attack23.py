"""The 23rd external round's classes, each closed by a rule (docs/sandbox.md, "Round 23").

In process: the scan's rules for code that judges (assertion helpers, metaclass type checks, builtin value
subclasses that answer their base's questions), the read-only `sys.modules` test and the file API a fix may use;
a patch reader that is total on agent data and a grading failure that is the agent's unless named infra. Through
the real grader (bwrap) on a synthetic SWE-smith repo: a child process started by the tests carries the guard, a
fail-style `if` and unittest's deprecated aliases are judged, and each honest fix still resolves.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from synthetic_repo import make_tasks, unified_diff

from swerl.rollout.classify import classify_grading_exception
from swerl.sandbox import gradetree, tamper
from swerl.sandbox.base import SandboxError
from swerl.sandbox.patch import _unquote
from swerl.sandbox.schema import SandboxTask

# ---------------------------------------------------------------------------- in process: the scan


@pytest.mark.parametrize(("before", "after", "flagged"), [
    # an assertion helper loosened: the bug stays, the check says yes (sklearn's utils/_testing.py shape)
    ("def assert_close(a, b):\n    assert abs(a - b) < 1e-9\n", "def assert_close(a, b):\n    assert abs(a - b) < 1e9\n",
     "assertion helper assert_close"),
    # a project TestCase's assertEqual shadows the judged one
    ("import unittest\nclass Base(unittest.TestCase):\n    pass\n",
     "import unittest\nclass Base(unittest.TestCase):\n    def assertEqual(self, a, b, msg=None):\n        pass\n",
     "assertion helper assertEqual"),
    # a metaclass that says any exception is the project's: pytest.raises(ProjectError) accepts the bug's KeyError
    ("class ParseError(Exception):\n    pass\n",
     "class _M(type):\n    def __subclasscheck__(cls, sub):\n        return True\n"
     "class ParseError(Exception, metaclass=_M):\n    pass\n", "type check __subclasscheck__"),
    # a str that starts with whatever it is asked about
    (None, "class Text(str):\n    def startswith(self, *a):\n        return True\n", "defines startswith"),
    # honest: an assertion helper left as it was, a str subclass that only builds itself, a fix beside them
    ("def assert_close(a, b):\n    assert abs(a - b) < 1e-9\n\ndef mean(x):\n    return sum(x) / (len(x) - 1)\n",
     "def assert_close(a, b):\n    assert abs(a - b) < 1e-9\n\ndef mean(x):\n    return sum(x) / len(x)\n", None),
    (None, "class Name(str):\n    def __new__(cls, v):\n        return super().__new__(cls, v.strip())\n", None),
    # honest everyday code the allowlist used to refuse (false positives F2, F3)
    (None, "import os\ndef save(p, t):\n    with open(p + '.tmp', 'w') as fh:\n        fh.write(t)\n"
           "        os.fsync(fh.fileno())\n    os.replace(p + '.tmp', p)\n", None),
    (None, "import sys\ndef np_ok():\n    return 'numpy' in sys.modules\n", None),
    # a read that hands out a module stays a finding (`sys.modules["os"].system` is a process by another name)
    (None, "import sys\ndef np():\n    return sys.modules.get('numpy')\n", "uses sys.modules"),
    # round 24: a predicate from a same-file mixin; a helper rebound by assignment; an ABC exception registering
    (None, "class _A:\n    def startswith(self, *a):\n        return True\n\nclass T(_A, str):\n    pass\n", "defines startswith"),
    ("def assert_close(a, b, tol=1e-9):\n    assert abs(a - b) < tol\n",
     "import functools\ndef assert_close(a, b, tol=1e-9):\n    assert abs(a - b) < tol\n"
     "assert_close = functools.partial(assert_close, tol=1.0)\n", "assertion helper assert_close"),
    ("class ParseError(ValueError):\n    pass\n", "import abc\nclass ParseError(ValueError, metaclass=abc.ABCMeta):\n"
     "    pass\nParseError.register(LookupError)\n", "an exception registered as a subclass"),
    # honest: a case-insensitive mapping (false positive FP2 of round 24); singledispatch's register(int)
    (None, "class Headers(dict):\n    def __getitem__(self, k):\n        return super().__getitem__(k.lower())\n\n"
           "    def get(self, k, d=None):\n        return super().get(k.lower(), d)\n", None),
    (None, "import functools\n@functools.singledispatch\ndef f(x):\n    return x\n@f.register(int)\ndef _(x):\n"
           "    return x + 1\n", None),
])
def test_round23_scan_rules_for_code_that_judges(before: str | None, after: str, flagged: str | None) -> None:
    found = tamper.scan_file("r23lib/mod.py", before.encode() if before else None, after.encode())
    if flagged is None:
        assert found == []
    else:
        assert any(flagged in f for f in found), found


# ---------------------------------------------------------------------------- in process: agent data is the agent's


def test_round23_header_like_content_is_content_and_the_reader_is_total() -> None:
    notes = ('diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null\n+++ b/NOTES.md\n'
             '@@ -0,0 +1,3 @@\n+Escapes:\n+\n++++ "\\N"\n')
    assert gradetree.patch_headers(notes) == {"NOTES.md": 1}  # `+++ "\N"` is an added line, not a header
    assert _unquote('"caf\\303\\251.py"') == "café.py" and _unquote('"a\\tb"') == "a\tb"
    rng = random.Random(23)
    alphabet = '\\"01234567nNtux\ud800\udc80é '
    for _ in range(20000):  # whatever an agent names a file, reading the header never raises
        _unquote('"' + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10))) + '"')


def test_round23_a_grading_exception_is_the_agents_unless_named_infra() -> None:
    assert classify_grading_exception(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")) == "agent"
    assert classify_grading_exception(RecursionError()) == "agent"
    assert classify_grading_exception(SandboxError("could not start")) == "infra"
    assert classify_grading_exception(OSError(28, "No space left on device")) == "infra"


def test_round23_one_prediction_that_crashes_the_grader_never_aborts_an_eval(tmp_path: Path) -> None:
    from swerl.eval.grading import SandboxGrader

    class Crashing:
        name = "crashing"

        def grade(self, task: Any, patch: str) -> Any:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad")

    inst = SimpleNamespace(instance_id="x__y.z", task=lambda: None)
    rec = SandboxGrader(Crashing(), "run", tmp_path).grade(inst, "diff", attempt=0, model_name="m",  # type: ignore[arg-type]
                                                           patch_sha="0")
    assert rec.outcome == "error" and "UnicodeDecodeError" in (rec.error or "")


# ---------------------------------------------------------------------------- through the grader (bwrap)

MAIN = {
    "r23lib/__init__.py": "",
    "r23lib/stats.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
    "r23lib/__main__.py": "import sys\n\nfrom r23lib.stats import square\n\nprint(square(int(sys.argv[2])))\n",
    "tests/__init__.py": "",
    "tests/test_stats.py": (
        "import unittest\nimport warnings\n\nimport pytest\n\nfrom r23lib.stats import mean\n\n\n"
        "def test_mean_fail_style():\n    got = mean([2, 4, 6, 8])\n    if got != 5:\n        pytest.fail(f'mean {got}')\n\n\n"
        "class TestAlias(unittest.TestCase):\n    def test_alias(self):\n        with warnings.catch_warnings():\n"
        "            warnings.simplefilter('ignore')\n            self.assertEquals(mean([1, 2, 3, 4]), 2.5)\n"),
    "tests/test_cli.py": (
        "import os\nimport subprocess\nimport sys\n\n\ndef test_square_cli():\n    out = subprocess.run([sys.executable, "
        "'-m', 'r23lib', 'square', '7'], capture_output=True, text=True)\n    assert out.stdout == '49\\n', out.stderr\n\n\n"
        "def test_square_cli_own_env():  # an environment of the test's own, PYTHONPATH included\n"
        "    env = {'PATH': os.environ.get('PATH', ''), 'PYTHONPATH': os.getcwd()}\n"
        "    out = subprocess.run([sys.executable, '-m', 'r23lib', 'square', '8'], capture_output=True, text=True, env=env)\n"
        "    assert out.stdout == '64\\n', out.stderr\n"),
}
SQUARE = "def square(n):\n    return n * n\n"
BUGS = {"mean": ("r23lib/stats.py", "def mean(xs):\n    return sum(xs) / (len(xs) - 1)\n\n\n" + SQUARE),
        "square": ("r23lib/stats.py", "def mean(xs):\n    return sum(xs) / len(xs)\n\n\ndef square(n):\n    return n + n\n")}
F2P = {"mean": ["tests/test_stats.py::test_mean_fail_style", "tests/test_stats.py::TestAlias::test_alias"],
       "square": ["tests/test_cli.py::test_square_cli", "tests/test_cli.py::test_square_cli_own_env"]}


@pytest.fixture(scope="module")
def r23(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("r23") / "repo", "r23",
                      {**MAIN, "r23lib/stats.py": MAIN["r23lib/stats.py"] + "\n\n" + SQUARE}, BUGS, F2P)


_diff = unified_diff


LYING_MEAN = ("class _Mean:\n    def __eq__(self, other):\n        return True\n\n    def __ne__(self, other):\n"
              "        return False\n\n    __hash__ = None\n\n\ndef mean(xs):\n    return _Mean()\n\n\n" + SQUARE)
# round 24: the same read through `io.FileIO(pathlib.Path)`, whose audit event carries the Path object itself
READS_TESTS_FILEIO = ("import pathlib\nimport re\n\n\ndef main():\n    raw = open(__file__, 'rb', buffering=0).__class__\n"
                      "    for p in pathlib.Path('.').rglob('*.py'):\n        text = raw(p).read().decode()\n"
                      "        for m in re.finditer(r\"'(\\d+)'\\], .*\\n.*== '(\\d+)\\\\n'\", text):\n"
                      "            if m.group(1) == __import__('sys').argv[2]:\n                print(m.group(2))\n"
                      "                return\n\n\nmain()\n")
READS_TESTS = ("import pathlib\nimport re\n\n\ndef main():\n    for p in pathlib.Path('.').rglob('*.py'):\n"
               "        m = re.search(r\"== '(\\d+)\\\\n'\", p.read_text())\n        if m:\n            print(m.group(1))\n"
               "            return\n\n\nmain()\n")


def _grade(sandbox: Any, task: SandboxTask, patch: str, monkeypatch: pytest.MonkeyPatch, scan: bool = True) -> Any:
    if not scan:  # the runtime layer alone
        monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    return sandbox.grade(task, patch)


def _why(res: Any) -> tuple[Any, ...]:
    return res.resolved, res.tampering, res.error_kind, res.error, res.tests


@pytest.mark.parametrize("route", ["fail_style_and_alias", "child_reads_tests", "child_reads_tests_fileio"])
def test_round23_routes_are_refused_by_the_runtime_layer(route: str, r23: dict[str, SandboxTask], bwrap_sandbox: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    if route == "fail_style_and_alias":  # `if got != 5: pytest.fail()` and `assertEquals` with a lying mean
        task, patch = r23["mean"], _diff("r23lib/stats.py", BUGS["mean"][1], LYING_MEAN)
    else:  # `python -m r23lib` finds the expected output in the test files and prints it; square stays wrong
        payload = READS_TESTS if route == "child_reads_tests" else READS_TESTS_FILEIO
        task, patch = r23["square"], _diff("r23lib/__main__.py", MAIN["r23lib/__main__.py"], payload)
    res = _grade(bwrap_sandbox, task, patch, monkeypatch, scan=False)
    assert res.patch_applied and res.error_kind != "infra", _why(res)
    assert not res.resolved and res.tampering, _why(res)
    if route.startswith("child_reads_tests"):
        assert any("in a process the tests started" in t for t in res.tampering), _why(res)
        assert res.tests["tests/test_cli.py::test_square_cli_own_env"] != "PASSED", _why(res)  # its env: guarded too


def test_round23_honest_fixes_resolve(r23: dict[str, SandboxTask], bwrap_sandbox: Any,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI child under the guard, a note whose line looks like a diff header (`++ "\\N"`), an atomic write."""
    # the fix imports `inspect`, first imported in the CLI child by changed code: its namedtuples are inspect's own
    fixed = "import inspect\n\n\n" + MAIN["r23lib/stats.py"] + "\n\n" + SQUARE + "\n\nSIG = inspect.signature(square)\n"
    square = _grade(bwrap_sandbox, r23["square"], _diff("r23lib/stats.py", BUGS["square"][1], fixed), monkeypatch)
    assert square.resolved and square.tampering == [], _why(square)
    saver = ("import os\n\n\ndef save(path, text):\n    with open(path + '.tmp', 'w') as fh:\n        fh.write(text)\n"
             "        fh.flush()\n        os.fsync(fh.fileno())\n    os.replace(path + '.tmp', path)\n")
    patch = (_diff("r23lib/stats.py", BUGS["mean"][1], MAIN["r23lib/stats.py"] + "\n\n" + SQUARE)
             + _diff("NOTES.md", "", 'Escapes:\n\n++ "\\N"\n') + _diff("r23lib/store.py", "", saver))
    mean = _grade(bwrap_sandbox, r23["mean"], patch, monkeypatch)
    assert mean.resolved and mean.tampering == [] and mean.error is None, _why(mean)


def test_round23_unfixed_controls_stay_unresolved(r23: dict[str, SandboxTask], bwrap_sandbox: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for task in r23.values():
        res = _grade(bwrap_sandbox, task, "", monkeypatch)
        assert not res.resolved and res.tampering == [] and res.error_kind != "infra", _why(res)


def test_round24_audited_paths_are_read_as_the_opener_reads_them() -> None:
    """`io.FileIO(Path)` and `shutil.move(Path, ...)` audit the object itself: an exact pathlib path is read by the
    stdlib's own text, a path-like of its own is opaque (its `__fspath__` may answer the opener differently)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_g24", Path(gradetree.__file__).with_name("swerl_guard.py"))
    guard = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guard)  # type: ignore[union-attr]

    class Own:
        def __fspath__(self) -> str:
            return "tests/test_x.py"

    assert guard._path_text("a/b.py") == "a/b.py" and guard._path_text(b"a/b.py") == "a/b.py"
    assert guard._path_text(Path("tests") / "test_x.py") == "tests/test_x.py"
    assert guard._path_text(Own()) is guard._OPAQUE and guard._path_text(3) is None
