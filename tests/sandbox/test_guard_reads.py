"""Reads no code spells (round 64): the format walk, a computed `getattr`, C code reading for the frame that called
it. The launcher hears reads of `sys.modules` (and the other hubs of `sys`), of a test module's attributes and of
a function's or bound method's links to the rest of the process; a function the patch wrote that asks for one by a
name its source does not spell is a finding. Each case runs the real launcher on a tree of its own."""

from pathlib import Path
from typing import Any

import pytest
from test_sandbox_launcher import _launch, sealable_dir  # noqa: F401  (the fixture, used by name)

TESTS = '''import pkg

CASES = [(2, 4), (3, 6)]


class Point:
    def __init__(self, x):
        self.x = x


def check(n):
    return n


class TestIt:
    def helper(self):
        return 1

    def test_with_method(self):
        assert pkg.run(self.helper, Point(1)) == 1


def test_with_function():
    assert pkg.run(check, Point(1)) == 1
'''

HEAD = "import inspect\nimport pickle\nimport sys\nimport typing\nimport warnings\n\n\n"
# the body of `run(fn, point)`, the function the patch wrote; each reads something and returns 1
CASES: dict[str, tuple[str, str | None]] = {
    "format walk to sys.modules": (
        "    probe = warnings.catch_warnings()\n"
        "    text = ('{0._mod' + 'ule.sys.mod' + 'ules[tests.test_r].CA' + 'SES}').format(probe)\n"
        "    return 1 if text else 0\n", "reads sys.modules by a name its code does not spell"),
    "computed getattr on the test module": (
        "    mod = inspect.getmodule(fn)\n    table = getattr(mod, 'CA' + 'SES')\n    return 1 if table else 0\n",
        "reads tests.test_r.CASES by a name its code does not spell"),
    "format walk through a handed function's globals": (
        "    text = ('{0.__glo' + 'bals__[CASES]}').format(fn)\n    return 1 if text else 0\n",
        "reads .__globals__ by a name its code does not spell"),
    "a closure's cells by a computed name": (
        "    cells = getattr(fn, '__clo' + 'sure__') or ()\n    return 1 if cells is not None else 0\n",
        "reads .__closure__ by a name its code does not spell"),
    # controls: what honest code does with the same objects
    "pickle of a test's class": ("    return 1 if pickle.loads(pickle.dumps(point)).x == 1 else 0\n", None),
    "the module's own entry, spelled": ("    return 1 if sys.modules[__name__] is not None else 0\n", None),
    "type hints of a test's class": ("    return 1 if typing.get_type_hints(type(point)) == {} else 0\n", None),
    "a signature of what it was handed": ("    return 1 if inspect.signature(fn) is not None else 0\n", None),
    "a format field of an ordinary object": ("    return 1 if '{0.x}'.format(point) == '1' else 0\n", None),
    "a computed getattr of an ordinary object": ("    return getattr(point, 'x' + '')\n", None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_reads_no_code_spells(case: str, sealable_dir: Path) -> None:  # noqa: F811
    body, finding = CASES[case]
    work = sealable_dir / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "tests").mkdir()
    (work / "tests" / "__init__.py").write_text("")
    source = HEAD + "def run(fn, point):\n" + body
    (work / "pkg" / "__init__.py").write_text(source)
    (work / "tests" / "test_r.py").write_text(TESTS)
    first = HEAD.count("\n") + 1
    spec: dict[str, Any] = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py", "tests/__init__.py"],
                            "lines": {"pkg/__init__.py": [[first, source.count("\n")]]},
                            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
    out, rec = _launch(work, spec)
    assert rec is not None, out[-3000:]
    if finding is None:
        assert rec["tampering"] == [], (case, rec, out[-3000:])
        assert set(rec["outcomes"].values()) == {"PASSED"} and len(rec["outcomes"]) == 2, (case, rec)
    else:
        assert any(finding in t for t in rec["tampering"]), (case, rec["tampering"], out[-3000:])


def test_a_bound_methods_receiver_by_a_computed_name(sealable_dir: Path) -> None:  # noqa: F811
    """`self.helper` handed to the patch's function leads to the test's instance (a `setUpClass` table on it)."""
    work = sealable_dir / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "tests").mkdir()
    (work / "pkg" / "__init__.py").write_text("def run(fn, point):\n    owner = getattr(fn, '__se' + 'lf__', None)\n"
                                              "    return 1 if owner is not None or fn else 0\n")
    (work / "tests" / "test_r.py").write_text(TESTS)
    spec = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py"], "lines": {"pkg/__init__.py": [[1, 3]]},
            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py::TestIt"]}
    out, rec = _launch(work, spec)
    assert rec is not None and any("reads .__self__ by a name its code does not spell" in t
                                   for t in rec["tampering"]), (rec, out[-3000:])


def test_the_watch_cannot_be_taken_off(sealable_dir: Path) -> None:  # noqa: F811
    """A test module given back the plain module class (a write of `__class__`), or the watched class given another
    reader (a plain class attribute write, which no event reports), is a finding."""
    work = sealable_dir / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "tests").mkdir()
    tests = "import sys\n\nimport pkg\n\n\ndef test_a():\n    assert pkg.run(sys.modules[__name__]) == 1\n"
    (work / "tests" / "test_r.py").write_text(tests)
    for body, finding in (("    mod.__class__ = type(inspect)\n", "__class__"),
                          ("    type(mod).__getattribute__ = type(inspect).__getattribute__\n",
                           "watch on module reads was undone")):
        source = "import inspect\n\n\ndef run(mod):\n" + body + "    return 1\n"
        (work / "pkg" / "__init__.py").write_text(source)
        spec = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py"],
                "lines": {"pkg/__init__.py": [[1, source.count("\n")]]},
                "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
        out, rec = _launch(work, spec)
        assert rec is not None and any(finding in t for t in rec["tampering"]), (body, rec, out[-3000:])
