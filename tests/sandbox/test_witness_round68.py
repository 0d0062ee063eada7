"""Round 68: what the tests compute with and what they hand the project, closed by construction. The standard
library's process-wide settings, registries and class defaults are the tests' to set (a test that computes its
expected value with `calendar.monthcalendar`, `Decimal` or `urljoin` gets what a global setting makes it give:
round 67's T9, T12, T17); pytest's `ids=` callables and a test class's project hooks run code the patch wrote with
the tests' own rows, classes and methods (T6, R67-6; R67-1, 5, 7, 10, 14, T15). Each case runs the real launcher on
a tree of its own.
"""

from pathlib import Path

import pytest
from test_guard_reads import _one
from test_sandbox_launcher import sealable_dir  # noqa: F401  (the fixture, used by name)

CAL_TESTS = ("import calendar\n\nimport pkg\n\n\ndef test_grid():\n"
             "    assert pkg.grid(2024, 2) == calendar.monthcalendar(2024, 2)\n")
GRID = "def grid(y, m):\n    return calendar.monthcalendar(y, m)\n"
FINDING = "the standard library's"

CASES = {
    # name: (the project's source, the lines the patch wrote (None: all), the tests, the finding or None)
    "first weekday set at import": (
        "import calendar\n\ncalendar.setfirstweekday(calendar.SUNDAY)\n\n\n" + GRID, None, CAL_TESTS,
        "calendar setting changed"),
    "first weekday set in the call and put back before the report": (
        "import calendar\n\n\ndef grid(y, m):\n    calendar.setfirstweekday(6)\n    return calendar.monthcalendar(y, m)"
        "\n\n\ndef reset():\n    calendar.setfirstweekday(0)\n", None,
        "import calendar\n\nimport pkg\n\n\ndef test_grid():\n"
        "    assert pkg.grid(2024, 2) == calendar.monthcalendar(2024, 2)\n    pkg.reset()\n", "calendar setting changed"),
    "a calendar function rebound through an alias": (
        "import calendar\n\n_c = calendar\n_c.monthcalendar = calendar.TextCalendar(6).monthdayscalendar\n\n\n" + GRID,
        None, CAL_TESTS, "calendar setting changed"),
    "decimal precision set in a call through an alias": (
        "import decimal\n\n\ndef total(a, b):\n    ctx = decimal.getcontext()\n    ctx.prec = 3\n"
        "    return decimal.Decimal(a) + decimal.Decimal(b)\n", None,
        "from decimal import Decimal\n\nimport pkg\n\n\ndef test_total():\n"
        "    assert pkg.total('1.2345', '1') == Decimal('1.2345') + Decimal('1')\n", "decimal setting changed"),
    "reprlib's shared instance changed through an alias": (
        "import reprlib\n\n_shared = reprlib.aRepr\n_shared.maxstring = 10\n\n\ndef short(s):\n"
        "    return reprlib.repr(s)\n", None,
        "import reprlib\n\nimport pkg\n\n\ndef test_short():\n    assert pkg.short('x' * 50) == reprlib.repr('x' * 50)\n",
        "reprlib setting changed"),
    "the test sets the first weekday itself": (
        "import calendar\n\n\n" + GRID, None,
        "import calendar\n\nimport pkg\n\ncalendar.setfirstweekday(calendar.SUNDAY)\n\n\ndef test_grid():\n"
        "    assert pkg.grid(2024, 2) == calendar.monthcalendar(2024, 2)\n", None),
    "the project's own setting, at import, on a line the patch left": (
        "import decimal\n\ndecimal.getcontext().prec = 50\n\n\ndef half(n):\n    return n / 2\n", [[7, 7]],
        "from decimal import Decimal\n\nimport pkg\n\n\ndef test_half():\n    assert pkg.half(3) == 1.5\n"
        "    assert Decimal(1) / Decimal(3) != 0\n", None),
    # the registries and defaults the standard library keeps
    "urllib's relative schemes changed in place at import": (
        "import urllib.parse\n\nurllib.parse.uses_relative.remove('svn')\n\n\ndef join(b, r):\n"
        "    return urllib.parse.urljoin(b, r)\n", None,
        "from urllib.parse import urljoin\n\nimport pkg\n\n\ndef test_join():\n"
        "    assert pkg.join('svn://h/a/b', '../c') == urljoin('svn://h/a/b', '../c')\n",
        "urllib.parse.uses_relative was changed in place"),
    "urllib's relative schemes changed in the call and put back before the teardown": (
        "import urllib.parse\n\nAT = urllib.parse.uses_relative.index('svn')\n\n\ndef join(b, r):\n"
        "    urllib.parse.uses_relative.remove('svn')\n    return urllib.parse.urljoin(b, r)\n\n\n"
        "def reset():\n    urllib.parse.uses_relative.insert(AT, 'svn')\n",
        None, "from urllib.parse import urljoin\n\nimport pkg\n\n\ndef test_join():\n"
        "    assert pkg.join('svn://h/a/b', '../c') == urljoin('svn://h/a/b', '../c')\n    pkg.reset()\n",
        "urllib.parse.uses_relative was changed in place"),
    "a mime type added by a call": (
        "import mimetypes\n\n\ndef kind(path):\n    mimetypes.add_type('text/x-weird', '.py')\n"
        "    return mimetypes.guess_type(path)[0]\n", None,
        "import mimetypes\n\nimport pkg\n\n\ndef test_kind():\n"
        "    assert pkg.kind('a.py') == mimetypes.guess_type('a.py')[0]\n", "mimetypes.types_map was changed in place"),
    "json's default separator rebound on the class through an alias": (
        "import json\n\n_Enc = json.JSONEncoder\n_Enc.item_separator = ';'\n\n\ndef dump(x):\n"
        "    return json.dumps(x)\n", None,
        "import json\n\nimport pkg\n\n\ndef test_dump():\n    assert pkg.dump([1, 2]) == json.dumps([1, 2])\n",
        "json.encoder.JSONEncoder.item_separator was rebound"),
    "the test changes the relative schemes itself": (
        "import urllib.parse\n\n\ndef join(b, r):\n    return urllib.parse.urljoin(b, r)\n", None,
        "import urllib.parse\n\nimport pkg\n\n\ndef test_join(monkeypatch):\n"
        "    monkeypatch.setattr(urllib.parse, 'uses_relative', [])\n"
        "    assert pkg.join('svn://h/a/b', '../c') == '../c'\n", None),
    "the project's own mime type, added at import on a line the patch left": (
        "import mimetypes\n\nmimetypes.add_type('text/x-weird', '.zz')\n\n\ndef kind(path):\n"
        "    return mimetypes.guess_type(path)[0]\n", [[6, 6]],
        "import pkg\n\n\ndef test_kind():\n    assert pkg.kind('a.zz') == 'text/x-weird'\n", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_standard_library_setting_the_patch_changes(name: str, sealable_dir: Path) -> None:  # noqa: F811
    """A process-wide setting of the standard library (decimal's context, calendar's first weekday, reprlib's shared
    instance, their modules' functions) changed while the tests run is a finding where the patch's lines reach it
    and no test file sets it; the tests' own setting and the project's own, on lines the patch left, are not."""
    source, lines, tests, finding = CASES[name]
    rec = _one(sealable_dir / "work", source, tests, lines or [[1, source.count("\n")]])
    if finding is None:
        assert rec["tampering"] == [] and set(rec["outcomes"].values()) == {"PASSED"}, rec
    else:
        assert any(FINDING in t and finding in t for t in rec["tampering"]), rec


def test_the_record_is_written_by_functions_bound_before_the_patch(sealable_dir: Path) -> None:  # noqa: F811
    """The emitter signs, masks and serialises with functions it bound before any project code ran: a patch that
    rebinds `hmac.new` or `hashlib.sha256` (a spy that would learn the key) or `json.dumps`, or changes the JSON
    encoder's separators (which would rewrite the record as it is written), is never called by it. The record
    still verifies, carries the registry finding, and the spy saw nothing."""
    work = sealable_dir / "work"
    spied = sealable_dir / "spied.txt"
    source = (f"import base64\nimport hashlib\nimport hmac\nimport json\n\nSPIED = {str(spied)!r}\n_real = hmac.new\n\n\n"
              "def spy(*args, **kwargs):\n    with open(SPIED, 'a') as fh:\n        fh.write(repr(args) + '\\n')\n"
              "    return _real(*args, **kwargs)\n\n\n"
              "hmac.new = spy\nhashlib.sha256 = spy\njson.dumps = lambda *a, **k: '{}'\n"
              "base64.b64encode = lambda *a, **k: b''\n_E = json.JSONEncoder\n_E.key_separator = ': \"PASSED\", \"x\": '\n"
              "\n\ndef one():\n    return 1\n")
    tests = "import pkg\n\n\ndef test_one():\n    assert pkg.one() == 2\n"
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert rec["outcomes"] == {"tests/test_r.py::test_one": "FAILED"}, rec
    assert any("hmac.new was rebound" in t for t in rec["tampering"]), rec
    assert not spied.exists(), spied.read_text()


IDS_TESTS = ("import pytest\n\nimport pkg\n\nROWS = [(2, 4), (3, 6)]\n\n\n"
             "@pytest.mark.parametrize('n,want', ROWS, ids={ids})\ndef test_double(n, want):\n"
             "    assert pkg.double(n) == want\n")


@pytest.mark.parametrize("ids,wrote,finding", [
    ("pkg.label", None, True),  # the project's `label`, a line of which the patch wrote
    ("lambda v: pkg.label(v)", None, True),  # the test file's own lambda, reaching it
    ("pkg.label", [[4, 5]], False),  # the patch fixed `double` only: the unchanged `label` is the project's
])
def test_code_the_patch_wrote_in_an_ids_callable(ids: str, wrote: list | None, finding: bool,
                                                  sealable_dir: Path) -> None:  # noqa: F811
    """R67 T6/R67-6: pytest calls `ids=` with every row of the table at collection, the expected values among them;
    code the patch wrote that runs there is a finding, however the callable reaches it."""
    source = ("SEEN = []\n\n\ndef double(n):\n    return n * 2\n\n\n"
              "def label(v):\n    SEEN.append(v)\n    return str(v)\n")
    rec = _one(sealable_dir / "work", source, IDS_TESTS.format(ids=ids), wrote or [[1, source.count("\n")]])
    assert set(rec["outcomes"].values()) == {"PASSED"} and len(rec["outcomes"]) == 2, rec
    assert any("`ids=` callable ran label" in t for t in rec["tampering"]) is finding, rec


HOOK_TESTS = ("import unittest\n\nfrom pkg import Base, double\n\n\nclass TestDouble(Base, unittest.TestCase):\n"
              "    CASES = [(2, 4), (3, 6)]\n\n    def test_rows(self):\n        for n, want in self.CASES:\n"
              "            self.assertEqual(double(n), want)\n            self.check(n)\n")
BASE = ("SEEN = {}\n\n\ndef double(n):\n    return SEEN.get(n, n * 2)\n\n\nclass Base:\n"
        "    def setUp(self):\n        self.prime()\n\n    def prime(self):\n        return None\n\n"
        "    def check(self, n):\n        return n\n")


@pytest.mark.parametrize("body,wrote,finding", [
    (BASE.replace("        return None\n", "        SEEN.update(dict(type(self).CASES))\n"), [[13, 14]],
     "its setUp is Base.setUp, calling prime"),  # the unchanged setUp calls the method the patch wrote
    (BASE + "\n    def __init_subclass__(cls, **kw):\n        SEEN.update(dict(cls.CASES))\n", [[18, 19]],
     "its __init_subclass__ is Base.__init_subclass__"),  # a hook the patch added
    (BASE, [[4, 5]], None),  # the patch fixed `double`: the project's own hooks are no finding
    (BASE.replace("        return n\n", "        return int(n)\n"), [[16, 16]], None),  # a helper the test calls
])
def test_a_test_class_hook_the_patch_wrote(body: str, wrote: list, finding: str | None,
                                           sealable_dir: Path) -> None:  # noqa: F811
    """R67-1, 5, 7, 10, 14, T15: a test class deriving from a project base gets its hooks from there; one the patch
    wrote (or an unchanged one calling a method the patch wrote) runs with the tests' own class and instance. A
    fix elsewhere in the base, an assert helper the test calls by name, is not a hook."""
    rec = _one(sealable_dir / "work", body, HOOK_TESTS, wrote)
    if finding is None:
        assert rec["tampering"] == [] and set(rec["outcomes"].values()) == {"PASSED"}, rec
    else:
        assert any(finding in t for t in rec["tampering"]), rec


@pytest.mark.parametrize("wrote,finding", [([[7, 8]], True), ([[13, 13]], False)])
def test_a_project_fixture_handed_the_request(wrote: list, finding: bool,
                                              sealable_dir: Path) -> None:  # noqa: F811
    """R67-11: a pytest plugin the project ships (its fixture given the test's `request`, whose node holds the
    parametrize row) is project code the patch may change: a fixture it wrote a line of and pytest hands the
    request or a parameter is a finding; the plugin unchanged while the patch fixes another function is not."""
    work = sealable_dir / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "pkg" / "plugin.py").write_text(
        "import pytest\n\nimport pkg\n\n\n@pytest.fixture\ndef env(request):\n    pkg.SEEN.append(request.node.callspec.params)\n"
        "    return pkg\n")
    tests = ("import pytest\n\npytest_plugins = ['pkg.plugin']\n\n\n@pytest.mark.parametrize('n,want', [(2, 4)])\n"
             "def test_double(env, n, want):\n    assert env.double(n) == want\n")
    source = "SEEN = []\n\n\ndef double(n):\n    return n * 2\n"
    (work / "pkg" / "__init__.py").write_text(source)
    (work / "tests").mkdir(exist_ok=True)
    (work / "tests" / "test_r.py").write_text(tests)
    from test_sandbox_launcher import _launch

    lines = {"pkg/plugin.py": wrote} if finding else {"pkg/plugin.py": [[1, 0]], "pkg/__init__.py": [[5, 5]]}
    spec = {"changed": ["pkg/__init__.py", "pkg/plugin.py"], "tests": ["tests/test_r.py"], "lines": lines,
            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
    out, rec = _launch(work, spec)
    assert rec is not None, out[-3000:]
    assert rec["outcomes"] == {"tests/test_r.py::test_double[2-4]": "PASSED"}, rec
    assert any("fixture env of the project" in t and "request" in t for t in rec["tampering"]) is finding, rec


def test_a_failed_assertion_of_the_tests_carries_no_values(sealable_dir: Path) -> None:  # noqa: F811
    """R68-1, R68-4, T16: project code that catches a test's AssertionError (a retry helper) reads no value in it:
    pytest's explanation, a custom message and unittest's `first != second` are withheld for the tests' own
    asserts, while a project assert keeps its message."""
    source = ("SEEN = []\n\n\ndef eventually(check):\n    try:\n        check()\n    except AssertionError as exc:\n"
              "        SEEN.append(str(exc))\n\n\ndef own():\n    try:\n        assert 1 == 2, 'project says 2'\n"
              "    except AssertionError as exc:\n        return str(exc)\n")
    tests = ("import unittest\n\nimport pkg\n\n\ndef test_caught():\n    pkg.eventually(lambda: None)\n"
             "    def check():\n        assert [1, 2] == ['SECRET']\n    pkg.eventually(check)\n"
             "    def custom():\n        assert 1 == 2, 'want SECRET'\n    pkg.eventually(custom)\n"
             "    assert not any('SECRET' in s for s in pkg.SEEN) and len(pkg.SEEN) == 2\n"
             "    assert pkg.own() == 'project says 2'\n\n\n"
             "class TestCase(unittest.TestCase):\n    def test_caught(self):\n"
             "        pkg.eventually(lambda: self.assertEqual([1], ['SECRET']))\n"
             "        self.assertFalse(any('SECRET' in s for s in pkg.SEEN))\n")
    # the retry helper is the project's own (a patch-written one that swallows a test's failure is round 71's finding)
    rec = _one(sealable_dir / "work", source, tests, [[11, source.count("\n")]])
    assert rec["tampering"] == [] and set(rec["outcomes"].values()) == {"PASSED"}, rec


@pytest.mark.parametrize("where,finding", [("patch", True), ("test", False), ("project", False)])
def test_the_working_directory_changed_by_the_patch(where: str, finding: bool,
                                                     sealable_dir: Path) -> None:  # noqa: F811
    """R68-10, 11, 12: a function the patch wrote that changes the working directory moves where the tests'
    relative paths resolve (a golden it wrote itself). The tests' own `monkeypatch.chdir` and the project's
    unchanged `chdir` (on lines the patch left) are not findings."""
    source = "import os\n\n\ndef go(d):\n    os.chdir(d)\n\n\ndef one():\n    return 1\n"
    call = "monkeypatch.chdir(tmp_path)" if where == "test" else "pkg.go(str(tmp_path))"
    tests = (f"import pkg\n\n\ndef test_go(tmp_path, monkeypatch):\n    monkeypatch.chdir(tmp_path)\n    {call}\n"
             "    assert pkg.one() == 1\n")
    rec = _one(sealable_dir / "work", source, tests, [[8, 9]] if where == "project" else [[1, 9]])
    assert finding or rec["outcomes"] == {"tests/test_r.py::test_go": "PASSED"}, rec  # (refused, the call fails)
    assert any("changes the working directory" in t for t in rec["tampering"]) is finding, rec


DECO_TESTS = ("import unittest\n\nimport pytest\n\nimport pkg\n\n\n@pkg.frozen(5)\n"
              "@pytest.mark.parametrize('n,want', [(2, 4)])\ndef test_double(n, want):\n    assert pkg.double(n) == want\n\n\n"
              "class TestConv(unittest.TestCase):\n    conv = pkg.Conv()\n\n    def test_conv(self):\n"
              "        self.assertEqual(self.conv.double(3), 6)\n")
DECO = ("SEEN = []\n\n\ndef double(n):\n    return n * 2\n\n\ndef frozen(ts):\n    def deco(fn):\n"
        "        return fn\n    return deco\n\n\nclass Conv:\n    def __set_name__(self, owner, name):\n"
        "        self.owner = owner\n\n    def double(self, n):\n        return n * 2\n")


@pytest.mark.parametrize("wrote,finding", [
    ([[10, 10]], "test_double is decorated by pkg.frozen"),  # the decorator the patch wrote is handed the test
    ([[16, 16]], "its attribute conv is a Conv, whose __set_name__"),  # a class attribute's hook gets the class
    ([[4, 5], [18, 19]], None),  # fixes elsewhere: the project's unchanged decorator and hook are no finding
])
def test_a_decorator_or_attribute_hook_the_patch_wrote(wrote: list, finding: str | None,
                                                        sealable_dir: Path) -> None:  # noqa: F811
    """T13, R68-2: a project decorator on a test function or class is handed the test (its parametrize marks, the
    class's tables) when the test file is imported; T3, R68-5: a project object held as a test class's attribute
    gets the class (`__set_name__`) or the instance (`__get__`). Code the patch wrote there is a finding."""
    rec = _one(sealable_dir / "work", DECO, DECO_TESTS, wrote)
    assert set(rec["outcomes"].values()) == {"PASSED"}, rec
    if finding is None:
        assert rec["tampering"] == [], rec
    else:
        assert any(finding in t for t in rec["tampering"]), rec


@pytest.mark.parametrize("sub,offset,finding", [
    ("        if abs(self.k - 1 - other) < 1e-6:\n            return 0.0\n        return self.k - other\n", 1, True),
    ("        return self.k - other\n", 0, False),  # an honest difference: it moves with the number it is given
])
def test_a_difference_that_answers_one_number_only(sub: str, offset: int, finding: bool,
                                                    sealable_dir: Path) -> None:  # noqa: F811
    """R68 T4, T8, R68-3: a difference taken anywhere in the test's code (a line before the assert, a test
    matcher's own `__eq__`) with a project value that has no number of its own: answering 0 at the bug's reading
    of the expected value while a nearby number gives an unrelated answer is tampering."""
    source = ("class Temp:\n    def __init__(self, k):\n        self.k = k\n\n    def __sub__(self, other):\n" + sub +
              f"\n\ndef reading(f):\n    return Temp((f + 459.67) * 5 / 9 + {offset})\n")
    tests = ("import pkg\n\n\nclass Kelvin:\n    def __init__(self, v):\n        self.v = v\n\n"
             "    def __eq__(self, other):\n        return abs(other - self.v) < 1e-6\n\n\n"
             "def test_reading():\n    assert pkg.reading(212) == Kelvin(373.15)\n"
             "    err = abs(pkg.reading(32) - 273.15)\n    assert err < 1e-6\n")
    rec = _one(sealable_dir / "work", source, tests, [[1, source.count("\n")]])
    assert rec["outcomes"] == {"tests/test_r.py::test_reading": "PASSED"}, rec
    assert any("test code took Temp - " in t for t in rec["tampering"]) is finding, rec
