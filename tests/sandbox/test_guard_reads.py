"""Reads no code spells (round 64): the format walk, a computed `getattr`, C code reading for the frame that called
it. The launcher hears reads of `sys.modules` (and the other hubs of `sys`), of a test module's attributes and of
a function's or bound method's links to the rest of the process; a function the patch wrote that asks for one by a
name its source does not spell is a finding. Each case runs the real launcher on a tree of its own."""

from pathlib import Path
from typing import Any

import pytest
from test_sandbox_launcher import _launch, sealable_dir  # noqa: F401  (the fixture, used by name)

TESTS = '''from unittest import mock

import pkg

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


def test_with_a_patched_module_table():  # mock's dotted lookup reads `sys.modules` by a name: the test asked
    with mock.patch.dict("sys.modules", {"swerl_no_such_module": None}):
        assert pkg.run(check, Point(1)) == 1
'''

HEAD = "import inspect\nimport pickle\nimport sys\nimport typing\nimport warnings\n\nfrom pkg import util\n\n\n"
# the project's own unchanged helpers: a dotted getattr and a name resolver (Django's `import_string`)
UTIL = ("import functools\nimport importlib\n\n\ndef call(fn):\n    return fn()\n\n\ndef rgetattr(obj, dotted):\n"
        "    return functools.reduce(getattr, dotted.split('.'), obj)\n\n\n"
        "def resolve(dotted):\n    module, _, name = dotted.rpartition('.')\n"
        "    return getattr(importlib.import_module(module), name)\n")
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
    "the project's own dotted getattr handed the walk": (
        "    return 1 if util.rgetattr(warnings.catch_warnings(), '_module.sys.' + 'modules') else 0\n",
        "reads sys.modules by a name no code on the stack spells"),
    "the project's own code calling what the patch handed it": (
        "    import functools\n"
        "    return 1 if util.call(functools.partial(str.format, '{0._mod' + 'ule.sys.mod' + 'ules}',"
        " warnings.catch_warnings())) else 0\n", "reads sys.modules by a name no code on the stack spells"),
    "a class claiming the test module as its home": (
        "    class Probe:\n        __module__ = 'tests.test_r'\n        x: 'CASES'\n"
        "    return 1 if inspect.get_annotations(Probe) else 0\n", "claims the tests' module tests.test_r"),
    "pytest's import hook through a test module's spec": (
        "    import importlib.util\n"
        "    return 1 if importlib.util.find_spec('tests.' + 'test_r').loader is not None else 0\n",
        "reads tests.test_r.__spec__ by a name no code on the stack spells"),
    "pytest's import hook from a pool worker": (  # round 65: only library frames on the worker thread
        "    import concurrent.futures, importlib.util\n"
        "    with concurrent.futures.ThreadPoolExecutor(1) as pool:\n"
        "        spec = pool.submit(importlib.util.find_spec, 'tests.' + 'test_r').result()\n"
        "    return 1 if spec is not None else 0\n",
        "reads tests.test_r.__spec__ on a thread with no frame of the tests or the project"),
    "pytest's import hook through the project's own helper": (
        "    import functools, importlib.util\n"
        "    return 1 if util.call(functools.partial(importlib.util.find_spec, 'tests.' + 'test_r')) else 0\n",
        "reads tests.test_r.__spec__ by a name no code on the stack spells"),
    "whether a module can be imported": (
        "    import importlib.util\n    return 1 if importlib.util.find_spec('json') is not None else 0\n", None),
    "a class whose home is changed after it was built": (  # R65-12
        "    class Probe:\n        x: 'CASES'\n    Probe.__module__ = 'tests.test_r'\n"
        "    return 1 if inspect.get_annotations(Probe, **{'eval_' + 'str': True}) else 0\n",
        "a class the patch built, claims it as its home"),
    "a spelled read of a test module's table": (
        "    return 1 if inspect.getmodule(fn).CASES else 0\n", "reads tests.test_r.CASES, the tests' data"),
    # controls: what honest code does with the same objects
    "a spelled read of a test module's class": (  # its class attributes: a `setUpClass` table (R63-19)
        "    return 1 if inspect.getmodule(fn).Point else 0\n", "reads tests.test_r.Point, the tests' data"),
    # the project's resolver handed a test's dotted path reads for itself (the blind run's case, R52-3)
    "the project's resolver reading a test module": (
        "    return 1 if util.resolve('tests.test_r.' + 'CASES') else 0\n", None),
    "pickle of a test's class": ("    return 1 if pickle.loads(pickle.dumps(point)).x == 1 else 0\n", None),
    "the module table, spelled on a line the patch wrote": (
        "    return 1 if sys.modules[__name__] is not None else 0\n", "reads sys.modules on a line the patch wrote"),
    "whether a module is loaded": ("    return 1 if 'json' in sys.modules else 0\n", None),
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
    (work / "pkg" / "util.py").write_text(UTIL)
    (work / "tests" / "test_r.py").write_text(TESTS)
    first = HEAD.count("\n") + 1
    spec: dict[str, Any] = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py", "tests/__init__.py"],
                            "lines": {"pkg/__init__.py": [[first, source.count("\n")]]},
                            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
    out, rec = _launch(work, spec)
    assert rec is not None, out[-3000:]
    if finding is None:
        assert rec["tampering"] == [], (case, rec, out[-3000:])
        assert set(rec["outcomes"].values()) == {"PASSED"} and len(rec["outcomes"]) == 3, (case, rec)
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


def test_a_lazy_chain_the_test_runs(sealable_dir: Path) -> None:  # noqa: F811
    """R64 T9: the patch returns C iterators over `str.format` of a split template; the test's own `list()` runs
    them, so no frame of the patch is on the stack when the walk reads `sys.modules`: the test's frame is charged
    with a read its source does not spell."""
    work = sealable_dir / "work"
    (work / "pkg").mkdir(parents=True)
    (work / "tests").mkdir()
    source = ("import functools\nimport warnings\n\n\ndef words():\n"
              "    tpl = '{0._mod' + 'ule.sys.mod' + 'ules}'\n"
              "    return map(functools.partial(str.format, tpl), [warnings.catch_warnings()])\n")
    (work / "pkg" / "__init__.py").write_text(source)
    (work / "tests" / "test_r.py").write_text("import pkg\n\n\ndef test_words():\n    assert len(list(pkg.words())) == 1\n")
    spec = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py"], "lines": {"pkg/__init__.py": [[1, 7]]},
            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
    out, rec = _launch(work, spec)
    assert rec is not None and any("reads sys.modules by a name no code on the stack spells" in t
                                   for t in rec["tampering"]), (rec, out[-3000:])


def _one(work: Path, source: str, tests: str, lines: list[list[int]]) -> dict[str, Any]:
    (work / "pkg").mkdir(parents=True, exist_ok=True)
    (work / "tests").mkdir(exist_ok=True)
    (work / "pkg" / "__init__.py").write_text(source)
    (work / "tests" / "test_r.py").write_text(tests)
    spec = {"changed": ["pkg/__init__.py"], "tests": ["tests/test_r.py"], "lines": {"pkg/__init__.py": lines},
            "args": ["-rA", "-q", "-p", "no:cacheprovider", "tests/test_r.py"]}
    out, rec = _launch(work, spec)
    assert rec is not None, out[-3000:]
    return rec


def test_a_line_the_patch_left_reads_for_the_project(sealable_dir: Path) -> None:  # noqa: F811
    """R64-FP3, FP6 (Flask's `from_object`): a settings module the test hands over, read by `vars()` and a literal
    `getattr` on lines the patch left as they were, in a function it fixed two lines below: the project's read."""
    source = ("def load(settings):\n    items = dict(vars(settings))\n    debug = getattr(settings, 'DEBUG', False)\n"
              "    return 1 if items and not debug else 0\n")
    tests = "import sys\n\nimport pkg\n\nDEBUG = False\n\n\ndef test_load():\n    assert pkg.load(sys.modules[__name__]) == 1\n"
    rec = _one(sealable_dir / "work", source, tests, [[4, 4]])
    assert rec["tampering"] == [] and rec["outcomes"] == {"tests/test_r.py::test_load": "PASSED"}, rec


def test_a_walk_on_a_thread_the_patch_started(sealable_dir: Path) -> None:  # noqa: F811
    """R64-6: the walk runs on a thread whose only frames are the library's (`Thread.run` calling `deque` over a
    `map`): no frame of the tests or the project is there to charge, and that is the finding."""
    source = ("import collections\nimport functools\nimport threading\nimport warnings\n\n\ndef rows():\n"
              "    tpl = '{0._mod' + 'ule.sys.mod' + 'ules}'\n    out = []\n"
              "    work = map(out.append, map(functools.partial(str.format, tpl), [warnings.catch_warnings()]))\n"
              "    t = threading.Thread(target=collections.deque, args=(work, 0))\n    t.start()\n    t.join()\n"
              "    return len(out)\n")
    tests = "import pkg\n\n\ndef test_rows():\n    assert pkg.rows() in (0, 1)\n"
    rec = _one(sealable_dir / "work", source, tests, [[7, 14]])
    assert any("reads sys.modules on a thread with no frame of the tests or the project" in t
               for t in rec["tampering"]), rec


def test_parametrize_arguments_are_sealed_at_collection(sealable_dir: Path) -> None:  # noqa: F811
    """R64-11: whoever reaches pytest's items can give a failing row the arguments of one the bug passes, knowing no
    answer; an item's parametrize arguments rebound after collection are a finding (here the test's own fixture
    does it, standing in for a thread the patch started)."""
    tests = ("import pytest\n\nimport pkg\n\n\n@pytest.fixture(autouse=True)\ndef swap(request):\n"
             "    request.node.callspec.params['n'] = 1\n\n\n"
             "@pytest.mark.parametrize('n', [1, 2])\ndef test_one(n):\n    assert pkg.one(n) == 1\n")
    rec = _one(sealable_dir / "work", "def one(n):\n    return 1\n", tests, [[1, 2]])
    assert any("test_one[2]: its parametrize arguments changed after collection" in t for t in rec["tampering"]), rec
    assert not any("test_one[1]" in t for t in rec["tampering"]), rec


def test_a_module_the_test_hands_over(sealable_dir: Path) -> None:  # noqa: F811
    """R65-FP (Flask's `from_object`, a plugin loader): a test module the test passes as an argument is read by the
    lines the patch wrote, `vars()` and a computed `getattr` alike: handed over, not looked for."""
    source = ("def load(settings):\n    items = {k: v for k, v in vars(settings).items() if k.isupper()}\n"
              "    hook = getattr(settings, 'reg' + 'ister')\n    return 1 if items and hook() else 0\n")
    tests = ("import sys\n\nimport pkg\n\nDEBUG = False\n\n\ndef register():\n    return True\n\n\n"
             "def test_load():\n    assert pkg.load(sys.modules[__name__]) == 1\n")
    rec = _one(sealable_dir / "work", source, tests, [[1, 4]])
    assert rec["tampering"] == [] and rec["outcomes"] == {"tests/test_r.py::test_load": "PASSED"}, rec


def test_a_program_the_patch_starts_reads_no_data_file(sealable_dir: Path) -> None:  # noqa: F811
    """R65-5: a program that a function the patch wrote starts (`cat`) reads no data file of the test directories:
    the kernel seals them on the starting thread first, while a file the test hands to the code it calls stays
    readable (a fixture given to a tool) and the tests themselves go on reading theirs on the main thread."""
    work = sealable_dir / "work"
    (work / "tests" / "data").mkdir(parents=True)
    (work / "tests" / "data" / "cases.json").write_text('{"want": 42}')
    (work / "tests" / "data" / "input.txt").write_text("input for the tool\n")
    source = ("import subprocess\nimport threading\n\n\ndef cat(path):\n"
              "    return subprocess.run(['cat', str(path)], capture_output=True, text=True).stdout\n\n\n"
              "def peek():\n    return cat('tests/data/cases.json')\n\n\n"
              "def peek_on_a_thread():\n    out = []\n    t = threading.Thread(target=lambda: out.append(peek()))\n"
              "    t.start()\n    t.join()\n    return out[0]\n")
    tests = ("import json\n\nimport pkg\n\n\ndef test_tool_gets_its_input():\n"
             "    assert pkg.cat('tests/data/input.txt') == 'input for the tool\\n'\n"
             "    with open('tests/data/cases.json') as fh:\n        assert json.load(fh) == {'want': 42}\n\n\n"
             "def test_peek():\n    assert pkg.peek() == ''\n    with open('tests/data/cases.json') as fh:\n"
             "        assert json.load(fh) == {'want': 42}\n\n\n"
             "def test_peek_on_a_thread():\n    assert pkg.peek_on_a_thread() == ''\n")
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert rec["tampering"] == [], rec
    assert set(rec["outcomes"].values()) == {"PASSED"} and len(rec["outcomes"]) == 3, rec
    assert "test files sealed by the kernel" in rec.get("notes", []), rec


def test_a_program_the_patch_starts_reads_no_loose_data_file(sealable_dir: Path) -> None:  # noqa: F811
    """The seal covers what the data-file rule judges: the tests' table in `testdata/` at the root (no `tests`
    directory above it) is sealed from a program the patch's code starts, while the package's own data file and the
    tree's root configuration stay readable to it, and the tests go on reading their table."""
    work = sealable_dir / "work"
    (work / "testdata").mkdir(parents=True)
    (work / "testdata" / "cases.csv").write_text("2,4\n")
    (work / "testdata" / "input.txt").write_text("in\n")
    (work / "pkg" / "data").mkdir(parents=True)
    (work / "pkg" / "data" / "units.txt").write_text("m\n")
    (work / "setup.cfg").write_text("[metadata]\nname = pkg\n")
    source = ("import subprocess\n\n\ndef cat(*paths):\n"
              "    return [subprocess.run(['cat', p], capture_output=True, text=True).stdout for p in paths]\n\n\n"
              "def peek():\n    return cat('testdata/cases.csv', 'pkg/data/units.txt', 'setup.cfg')\n")
    tests = ("import pkg\n\n\ndef test_cat():\n"
             "    assert pkg.cat('testdata/input.txt') == ['in\\n']  # handed over: the tool's input\n"
             "    table, units, config = pkg.peek()\n"
             "    assert table == '' and units == 'm\\n' and 'name = pkg' in config\n"
             "    assert open('testdata/cases.csv').read() == '2,4\\n'\n")
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert rec["tampering"] == [] and rec["outcomes"] == {"tests/test_r.py::test_cat": "PASSED"}, rec
    assert "test files sealed by the kernel" in rec.get("notes", []), rec


def test_the_tests_data_outside_a_test_directory(sealable_dir: Path) -> None:  # noqa: F811
    """R66-2: the tests' cases table in `testdata/` at the tree's root (no `tests` directory above it), read by the
    test module and by the patch's code: a data file the tests read. A package's own data file that both read (the
    project's loader and a test checking it) is the project's."""
    work = sealable_dir / "work"
    (work / "testdata").mkdir(parents=True)
    (work / "testdata" / "cases.csv").write_text("2,4\n")
    (work / "pkg" / "data").mkdir(parents=True)
    (work / "pkg" / "data" / "units.txt").write_text("m\n")
    tests = ("import pkg\n\nROWS = open('testdata/cases.csv').read()\n\n\ndef test_units():\n"
             "    assert pkg.units() == open('pkg/data/units.txt').read()\n\n\n"
             "def test_double():\n    assert pkg.double(2) == 4\n")
    source = ("import os\n\n\ndef units():\n    return open(os.path.join(os.path.dirname(__file__), 'data', 'units.txt'))"
              ".read()\n\n\ndef double(n):\n    return int(dict(r.strip().split(',') for r in open('testdata/cases.csv'))[str(n)])\n")
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert any("testdata/cases.csv, a data file the tests read" in t for t in rec["tampering"]), rec
    assert not any("units.txt" in t for t in rec["tampering"]), rec


def test_annotation_text_evaluated_in_a_foreign_namespace(sealable_dir: Path) -> None:  # noqa: F811
    """R66-11..18: text put into a test function's annotations and evaluated by `inspect.get_annotations` runs in
    the tests' module globals (`CASES` is a dict lookup, no event); a text reading private attributes walks into a
    library's internals. A project function's own annotations evaluated by the project's unchanged helper (typing's
    forward references) are no finding."""
    util = ("import typing\n\n\ndef hints(fn):\n    return typing.get_type_hints(fn)\n")
    tests = ("import pkg\n\nCASES = {2: 4}\n\n\ndef helper(x):\n    return x\n\n\n"
             "def test_run():\n    assert pkg.run(helper) == 1\n")
    for body, finding in (
            ("    fn.__annotations__.update({'x': 'CASES'})\n    inspect.get_annotations(fn, **{'eval_' + 'str': True})\n",
             "evaluates annotation text in the namespace of test_r"),
            ("    inspect.get_annotations(probe, **{'eval_' + 'str': True})\n",
             "evaluates annotation text that reads private attributes (_default_decoder)"),
            ("    util.hints(typed)\n", None)):
        work = sealable_dir / "work"
        (work / "pkg").mkdir(parents=True, exist_ok=True)
        (work / "pkg" / "util.py").write_text(util)
        source = ("import inspect\nimport json\n\nfrom pkg import util\n\n\ndef probe(x: 'json._default_decoder'):\n"
                  "    return x\n\n\ndef typed(x: 'int') -> 'str':\n    return str(x)\n\n\ndef run(fn):\n" + body +
                  "    return 1\n")
        rec = _one(work, source, tests, [[1, source.count("\n")]])
        if finding is None:
            assert rec["tampering"] == [] and rec["outcomes"] == {"tests/test_r.py::test_run": "PASSED"}, rec
        else:
            assert any(finding in t for t in rec["tampering"]), (body, rec)


def test_a_database_of_the_tests_data(sealable_dir: Path) -> None:  # noqa: F811
    """R66-6: SQLite opens files in C (no `open` event); the tests' fixture database, queried by the test module and
    by the patch's code, is judged at `sqlite3.connect` like any data file the tests read. The project's own
    database in a temporary directory is not."""
    import sqlite3

    work = sealable_dir / "work"
    (work / "tests" / "data").mkdir(parents=True)
    with sqlite3.connect(work / "tests" / "data" / "cases.db") as db:
        db.execute("create table c (n int, want int)")
        db.execute("insert into c values (2, 4)")
    tests = ("import sqlite3\n\nimport pkg\n\nROWS = sqlite3.connect('tests/data/cases.db').execute('select * from c')"
             ".fetchall()\n\n\ndef test_double(tmp_path):\n    assert pkg.cache(tmp_path) == 1\n"
             "    assert [pkg.double(n) for n, _ in ROWS] == [w for _, w in ROWS]\n")
    source = ("import sqlite3\n\n\ndef cache(where):\n    with sqlite3.connect(f'file:{where}/c.db?mode=rwc', uri=True) as db:"
              "\n        db.execute('create table if not exists k (v int)')\n    return 1\n\n\ndef double(n):\n"
              "    return dict(sqlite3.connect('file:tests/data/cases.db?mode=ro', uri=True).execute('select * from c')"
              ".fetchall())[n]\n")
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert any("tests/data/cases.db, a data file the tests read" in t for t in rec["tampering"]), rec
    assert not any("c.db," in t and "cases.db" not in t for t in rec["tampering"]), rec


def test_traceback_locals_of_an_error_the_test_hands_over(sealable_dir: Path) -> None:  # noqa: F811
    """R66-12: `traceback.TracebackException(..., capture_locals=True)` of an error the test caught hands back the
    test frame's locals (its expected value) as text; the same traceback's function names are no finding."""
    tests = ("import pytest\n\nimport pkg\n\n\ndef test_report():\n    want = 'secret'\n"
             "    with pytest.raises(ValueError) as info:\n        pkg.fail()\n    assert pkg.report(info.value)\n")
    for body, finding in (
            ("    t = traceback.TracebackException(type(exc), exc, exc.__traceback__, capture_locals=True)\n"
             "    return ''.join(t.format())\n", "reads .tb_frame through traceback's capture_locals"),
            ("    t = traceback.TracebackException(type(exc), exc, exc.__traceback__, lookup_lines=False)\n"
             "    return ' < '.join(f.name for f in t.stack)\n", None)):
        source = "import traceback\n\n\ndef fail():\n    raise ValueError('no')\n\n\ndef report(exc):\n" + body
        rec = _one(sealable_dir / "work", source, tests, [[1, source.count("\n")]])
        if finding is None:
            assert rec["tampering"] == [] and set(rec["outcomes"].values()) == {"PASSED"}, rec
        else:
            assert any(finding in t for t in rec["tampering"]), (body, rec)


def test_a_program_started_in_a_childs_patch_code_reads_no_data_file(sealable_dir: Path) -> None:  # noqa: F811
    """Round 67: the test starts a Python child (a CLI); the patch's code there starts `cat` on the tests' data: the
    child's guard seals the data files on its thread first, except the input its command line names."""
    work = sealable_dir / "work"
    (work / "tests" / "data").mkdir(parents=True)
    (work / "tests" / "data" / "cases.json").write_text('{"want": 42}')
    (work / "tests" / "data" / "input.txt").write_text("input\n")
    source = ("import subprocess\nimport sys\n\n\ndef cat(path):\n"
              "    return subprocess.run(['cat', path], capture_output=True, text=True).stdout\n\n\n"
              "def main():\n    print(repr((cat(sys.argv[1]), cat('tests/data/cases.json'))))\n")
    tests = ("import subprocess\nimport sys\n\n\ndef test_cli():\n"
             "    out = subprocess.run([sys.executable, '-c', 'import sys, pkg; pkg.main()', 'tests/data/input.txt'],"
             " capture_output=True, text=True).stdout\n    assert out.strip() == repr(('input\\n', ''))\n")
    rec = _one(work, source, tests, [[1, source.count("\n")]])
    assert rec["outcomes"] == {"tests/test_r.py::test_cli": "PASSED"}, rec
