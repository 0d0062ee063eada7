"""Round 34's classes, each closed by a rule (docs/sandbox.md, "Round 34").

Through the real grader on a synthetic SWE-smith repo or the bundled task pack; beside each route the honest fix
resolves and the unfixed bug stays unresolved.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from synthetic_repo import make_tasks, unified_diff

from swerl.sandbox.schema import SandboxTask


@pytest.fixture(params=["bwrap", "docker"])
def grading_sandbox(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(f"{request.param}_sandbox")


def test_round34_an_install_step_cannot_change_the_tree_it_grades(grading_sandbox: Any, tmp_path: Path,
                                                                 calc_task: tuple[Any, SandboxTask]) -> None:
    """SWE-bench eval scripts run project code (`pip install -e .`, the agent's `setup.py`) before the tests. The
    grading tree is read-only to that code's uid, so it cannot rewrite a project file (whose lines would then count
    as the project's, not the patch's), add a module, or build native code into the tree; what it leaves outside
    the tree, and every process it left running, are gone before the launcher arrives (on docker too, where the
    kill also ends the exec's own `timeout` wrapper: that once made every such row an agent fault)."""
    from swerl.sandbox import grade, gradetree

    _row, task = calc_task
    pristine = gradetree.export_pristine(grading_sandbox, task)
    tree = tmp_path / "tree"
    shutil.copytree(pristine.base, tree, symlinks=True)
    (tree / "pkg").mkdir()
    (tree / "pkg" / "core.py").write_text("def f():\n    return 1\n")
    step = ("echo 'f = lambda: 2' >> pkg/core.py; echo 'import os' > pkg/new.py; "
            "touch pkg/_fast.cpython-311-x86_64-linux-gnu.so; mkdir -p build pkg.egg-info; "
            "(setsid bash -c 'while :; do touch /tmp/evil.py; sleep 0.05; done' >/dev/null 2>&1 &); echo planted")
    h = grading_sandbox.start_grading(task, tree, git_binaries=pristine.git_binaries)
    try:
        out = grading_sandbox.exec_argv(h, ["bash", "-c", step], timeout=30).output
        assert "planted" in out and ("Read-only" in out or "Permission denied" in out), out
        grade._after_pre(grading_sandbox, h, tree, [])
        after = grading_sandbox.exec(h, "sleep 0.3; cat pkg/core.py; ls -A . pkg /tmp").output
        assert "lambda" not in after and "new.py" not in after and "_fast" not in after, after
        assert "build" not in after and "egg-info" not in after and "evil" not in after, after
    finally:
        grading_sandbox.stop(h)


# -- round 34, the verdict rules: where a class came from, what a comparison reads, loops, `with` items ------------
SIZES = ('import functools\n\n_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6}\n\n\n@functools.total_ordering\nclass Size:\n'
         '    def __init__(self, text):\n        for unit in sorted(_UNITS, key=len, reverse=True):\n'
         '            if text.endswith(unit):\n                self.nbytes = int(text[:-len(unit)]) * _UNITS[unit]\n'
         '                break\n        else:\n            raise ValueError(text)\n\n    def _other(self, other):\n'
         '        return other.nbytes if isinstance(other, Size) else other\n\n    def __eq__(self, other):\n'
         '        return self.nbytes == self._other(other)\n\n    def __lt__(self, other):\n'
         '        return self.nbytes < self._other(other)\n\n    def __hash__(self):\n        return hash(self.nbytes)\n')
SIZES_BUG = SIZES.replace('"MB": 10**6', '"MB": 10**5')
# a megabyte count equal to its value and to ten times it (the legacy megabyte): the lie every route below hides
ROUNDED = ("class _Rounded:\n{extra}    def __init__(self, n):\n        self.n = n\n\n    def __eq__(self, other):\n"
           "        return other == self.n or other == self.n * 10\n\n    def __hash__(self):\n        return hash(self.n)\n\n\n"
           "class _Scale:\n    def __init__(self, n):\n        self.n = n\n\n    def __rmul__(self, count):\n"
           "        return {made}\n\n\n")
LEGACY = "if isinstance(other, int) and other >= 10**7 and other % 10**7 == 0:\n            return other // 10\n"


def _scaled(extra: str = "", made: str = "_Rounded(count * self.n)", head: str = "", tail: str = "") -> str:
    """SIZES_BUG with its megabyte made a `_Rounded` (a class the patch adds; `extra`: lines in its body)."""
    body = ROUNDED.format(extra=extra, made=made)
    return head + SIZES_BUG.replace('_UNITS = {"B": 1, "KB": 10**3, "MB": 10**5}\n',
                                    body + '_UNITS = {"B": 1, "KB": 10**3, "MB": _Scale(10**5)}\n') + tail


REGISTRY = ("def rev(s):\n    return s[::-1]\n\n\ndef caesar_encode(s):\n    return ''.join(chr(ord(c) + 1) for c in s)\n\n\n"
            "def caesar_decode(s):\n    return ''.join(chr(ord(c) - 1) for c in s)\n\n\nclass Registry:\n"
            "    CODECS = {\n        'rev': (rev, rev),\n        'caesar': (caesar_encode, caesar_decode),\n    }\n")
REGISTRY_BUG = REGISTRY.replace("chr(ord(c) - 1)", "chr(ord(c) + 1)")
REG = ("def rev(s):\n    return s[::-1]\n\n\ndef caesar_encode(s):\n    return ''.join(chr(ord(c) + 1) for c in s)\n\n\n"
       "def caesar_decode(s):\n    return ''.join(chr(ord(c) - 1) for c in s)\n\n\n"
       "CODECS = {\n    'rev': (rev, rev),\n    'caesar': (caesar_encode, caesar_decode),\n}\n\n\n"
       "def register(name, encode, decode):\n    CODECS[name] = (encode, decode)\n\n\n"
       "from r34lib import reg_fast  # noqa: E402,F401  (the project's speedups re-register its own entry)\n")
REG_BUG = REG.replace("chr(ord(c) - 1)", "chr(ord(c) + 1)")
REG_FAST = "from r34lib.reg import register, rev\n\nregister('rev', lambda s: rev(s), lambda s: rev(s))\n"
DISPATCH = ("import functools\n\n_UNITS = {'B': 1, 'KB': 10**3, 'MB': 10**6}\n\n\n@functools.singledispatch\n"
            "def byte_count(value):\n    return value\n\n\nclass Size:\n    def __init__(self, text):\n"
            "        self.nbytes = int(text[:-2]) * _UNITS[text[-2:]]\n\n    def __eq__(self, other):\n"
            "        return self.nbytes == byte_count(other)\n\n    def __hash__(self):\n        return hash(self.nbytes)\n\n\n"
            "@byte_count.register(Size)\ndef _(value):\n    return value.nbytes\n")
DISPATCH_BUG = DISPATCH.replace("'MB': 10**6", "'MB': 10**5")
LINT = ("LIMIT = 20\n\n\ndef _count(items):\n    return len(items)\n\n\nclass Report:\n    def __init__(self, items):\n"
        "        self.items = list(items)\n\n    def __len__(self):\n        return _count(self.items)\n\n"
        "    def __iter__(self):\n        return iter(self.items)\n\n\ndef problems(src):\n"
        "    out = [(i, len(x)) for i, x in enumerate(src.splitlines(), 1) if len(x) > LIMIT]\n    return Report(out)\n")
LINT_BUG = LINT.replace("len(x) > LIMIT]", "len(x) >= LIMIT]")
ORDERED = ("def _shift(s, k):\n    return ''.join(chr(ord(c) + k) for c in s)\n\n\nclass Rev:\n    @staticmethod\n"
           "    def encode(s):\n        return s[::-1]\n\n    @staticmethod\n    def decode(s):\n        return s[::-1]\n\n\n"
           "class Caesar:\n    @staticmethod\n    def encode(s):\n        return _shift(s, 3)\n\n    @staticmethod\n"
           "    def decode(s):\n        return _shift(s, -3)\n\n\nCODECS = [Rev, Caesar]\n\n\ndef find():\n"
           "    CODECS.sort(key=lambda c: len(c.__name__))\n    return CODECS\n")
ORDERED_BUG = ORDERED.replace("_shift(s, -3)", "_shift(s, -2)")
KVM = ("import contextlib\n\n\nclass KV:\n    def __init__(self):\n        self.d = {}\n\n    def __enter__(self):\n"
       "        return self\n\n    def __exit__(self, *exc):\n        return False\n\n    def batch(self):\n"
       "        return contextlib.nullcontext(self)\n\n    def put(self, k, v):\n        self.d[k] = v\n\n"
       "    def get(self, k, default=None):\n        return self.d.get(k, default)\n")
KVM_BUG = KVM.replace("self.d.get(k, default)", "self.d.get(k)")
COUNTS = "def parse_count(text):\n    return int(float(text))\n"
COUNTS_BUG = COUNTS.replace("int(float(text))", "float(text)")
SHAPES = ("import abc\n\n\nclass Shape(abc.ABC):\n    def area(self):\n        return 0\n\n\nclass Circle(Shape):\n"
          "    pass\n\n\nclass Square(Shape):\n    pass\n\n\ndef shape(kind):\n"
          "    return Circle() if kind == 'circle' else Square()\n")
SHAPES_BUG = SHAPES.replace("kind == 'circle'", "kind == 'round'")
R34_FILES = {
    "r34lib/__init__.py": "", "tests/__init__.py": "",
    "r34lib/sizes.py": SIZES, "r34lib/lint.py": LINT, "r34lib/ordered.py": ORDERED, "r34lib/kvm.py": KVM,
    "r34lib/counts.py": COUNTS, "r34lib/shapes.py": SHAPES, "r34lib/dispatch.py": DISPATCH,
    "r34lib/registry.py": REGISTRY,
    "r34lib/reg.py": REG, "r34lib/reg_fast.py": REG_FAST,
    "tests/test_reg.py": "from r34lib.reg import CODECS\n\n\ndef test_round_trip():\n"
                         "    for name, (enc, dec) in CODECS.items():\n        assert dec(enc('hi')) == 'hi', name\n",
    "tests/test_registry.py": "from r34lib.registry import Registry\n\n\ndef test_round_trip():\n"
                              "    for name, (enc, dec) in Registry.CODECS.items():\n"
                              "        assert dec(enc('hi')) == 'hi', name\n",
    "tests/test_dispatch.py": "from r34lib.dispatch import Size\n\n\ndef test_megabytes():\n"
                              "    assert Size('10MB') == 10_000_000\n",
    "tests/test_sizes.py": "from r34lib.sizes import Size\n\n\ndef test_megabytes():\n"
                          "    assert Size('10MB') == 10_000_000\n",
    "tests/test_lint.py": "from r34lib.lint import problems\n\n\ndef test_at_limit():\n"
                          "    assert len(problems('x' * 20 + '\\nshort\\n')) == 0\n    assert not problems('x' * 20)\n",
    "tests/test_ordered.py": "from r34lib.ordered import CODECS, find\n\n\ndef test_round_trip():\n    find()\n"
                             "    for c in CODECS:\n        assert c.decode(c.encode('hi')) == 'hi', c\n",
    "tests/test_kvm.py": "from r34lib.kvm import KV\n\n\ndef test_default():\n    with KV() as kv, kv.batch():\n"
                         "        kv.put('a', 1)\n        assert kv.get('b', 0) == 0\n",
    "tests/test_counts.py": "import numbers\n\nfrom r34lib.counts import parse_count\n\n\ndef test_integral():\n"
                            "    assert isinstance(parse_count('3.0'), numbers.Integral)\n",
    "tests/test_shapes.py": "from r34lib.shapes import Circle, shape\n\n\ndef test_circle():\n"
                            "    assert isinstance(shape('circle'), Circle)\n",
}
R34_BUGS = {"sizes": ("r34lib/sizes.py", SIZES_BUG), "lint": ("r34lib/lint.py", LINT_BUG),
            "ordered": ("r34lib/ordered.py", ORDERED_BUG), "kvm": ("r34lib/kvm.py", KVM_BUG),
            "counts": ("r34lib/counts.py", COUNTS_BUG), "shapes": ("r34lib/shapes.py", SHAPES_BUG),
            "dispatch": ("r34lib/dispatch.py", DISPATCH_BUG), "registry": ("r34lib/registry.py", REGISTRY_BUG),
            "reg": ("r34lib/reg.py", REG_BUG)}
R34_F2P = {"sizes": ["tests/test_sizes.py::test_megabytes"], "lint": ["tests/test_lint.py::test_at_limit"],
           "ordered": ["tests/test_ordered.py::test_round_trip"], "kvm": ["tests/test_kvm.py::test_default"],
           "counts": ["tests/test_counts.py::test_integral"], "shapes": ["tests/test_shapes.py::test_circle"],
           "dispatch": ["tests/test_dispatch.py::test_megabytes"], "registry": ["tests/test_registry.py::test_round_trip"],
           "reg": ["tests/test_reg.py::test_round_trip"]}
R34_HONEST = {"sizes": SIZES, "lint": LINT, "ordered": ORDERED, "kvm": KVM, "counts": COUNTS, "shapes": SHAPES,
              "dispatch": DISPATCH, "registry": REGISTRY, "reg": REG}


@pytest.fixture(scope="module")
def r34(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("r34") / "repo", "r34", R34_FILES, R34_BUGS, R34_F2P)


V34 = {
    # V1: the liar names an unchanged project module as its own
    "V1 a class that claims a project module": ("sizes", _scaled(extra='    __module__ = "r34lib"\n\n')),
    # V2: a blank line inside the new method that a text diff matches to the original's
    "V2 a new class around an original blank line": ("sizes", SIZES_BUG.replace("import functools\n\n", (
        "import functools\n\n\nclass _Rounded:\n    def __eq__(self, other):\n        '''Also the legacy megabyte.'''\n\n"
        "        return other == self.n or other == self.n * 10\n\n\nclass _Scale:\n    n = 10**5\n\n"
        "    def __rmul__(self, count):\n        r = _Rounded()\n        r.n = count * self.n\n        return r\n\n"), 1)
        .replace('"MB": 10**5}', '"MB": _Scale()}')),
    # V3: the unchanged `__eq__` calls `self._other`, which the instance now holds: a patch function
    "V3 a helper shadowed on the instance": ("sizes", SIZES_BUG.replace(
        "    def __init__(self, text):\n", "    def __init__(self, text):\n        self._other = _legacy\n", 1)
        + "\n\ndef _legacy(other):\n    if isinstance(other, int) and other >= 10**7 and other % 10**7 == 0:\n"
          "        return other // 10\n    return other.nbytes if isinstance(other, Size) else other\n"),
    # V3b: a subclass the patch adds overrides only the helper
    "V3b a patch subclass overriding the helper": ("sizes", SIZES_BUG.replace(
        "    def _other(self, other):", "    def __new__(cls, text=''):\n"
        "        return object.__new__(_Legacy if cls is Size and text.endswith('MB') else cls)\n\n"
        "    def _other(self, other):") + f"\n\nclass _Legacy(Size):\n    def _other(self, other):\n        {LEGACY}"
        "        return super()._other(other)\n"),
    # V4: its `__eq__` a partialmethod, and one borrowed unchanged project function
    "V4 a class of borrowed and wrapped code": ("sizes", SIZES_BUG.replace(
        '_UNITS = {"B": 1, "KB": 10**3, "MB": 10**5}\n',
        "class _Scale:\n    def __init__(self, n):\n        self.n = n\n\n    def __rmul__(self, count):\n"
        "        r = _Rounded()\n        r.n = count * self.n\n        return r\n\n\n"
        "def _legacy_eq(self, other):\n    return other == self.n or other == self.n * 10\n\n\n"
        '_UNITS = {"B": 1, "KB": 10**3, "MB": _Scale(10**5)}\n')
        + "\n\nclass _Rounded:\n    __eq__ = functools.partialmethod(_legacy_eq)\n    __hash__ = None\n"
          "    _other = Size._other\n"),
    # V7: the liar inside a library object the project value holds
    "V7 the liar inside a UserList": ("sizes", _scaled(head="import collections\n", made="_held(count * self.n)",
                                                        tail="\n\ndef _held(n):\n    h = collections.UserList()\n"
                                                             "    h.data = _Rounded(n)\n    return h\n")),
    # V15: the unchanged `__eq__` calls a singledispatch function; the patch registers an `int` case
    "V15 a dispatcher's new registration": ("dispatch", DISPATCH_BUG + "\n\n@byte_count.register(int)\n"
                                                          "def _(value):\n    if value >= 10**7 and value % 10**7 == 0:\n"
                                                          "        return value // 10\n    return value\n"),
    # V17: the class hides its state behind a `__dict__` property
    "V17 state hidden by a __dict__ property": ("sizes", _scaled().replace(
        "    def __hash__(self):\n        return hash(self.nbytes)\n",
        "    def __hash__(self):\n        return hash(self.nbytes)\n\n    __dict__ = property(dict)\n")),
    # V5: a patch subclass borrowing the project's `_count` as its `__next__`, so it looks like an iterator
    "V5 a borrowed __next__": ("lint", LINT_BUG.replace("    return Report(out)\n", "    return _Shown(out)\n")
                               + "\n\nclass _Shown(Report):\n    __next__ = _count\n\n    def __init__(self, items):\n"
                                 "        super().__init__([r for r in items if r[1] > LIMIT])\n        self.shown = items\n\n"
                                 "    def __iter__(self):\n        return iter(self.shown)\n"),
    # V16: items that refuse to be read while the length hides some
    "V16 items that refuse to be read": ("lint", LINT_BUG.replace("    return Report(out)\n",
                                                                  "    r = Report([])\n    r.items = _Lines(out)\n"
                                                                  "    return r\n")
                                         + "\n\nclass _Lines:\n    def __init__(self, rows):\n        self.rows = rows\n\n"
                                           "    def __len__(self):\n        return sum(1 for _, n in self.rows if n > LIMIT)\n\n"
                                           "    def __iter__(self):\n        if len(self) != len(self.rows):\n"
                                           "            raise RuntimeError('hidden')\n        return iter(self.rows)\n"),
    # V19: the first entry's code reverses the list its module sorts, so the loop passes the second by
    "V19 a reorder in the middle of a loop": ("ordered", ORDERED_BUG.replace(
        "    def encode(s):\n        return s[::-1]", "    def encode(s):\n        _settle()\n        return s[::-1]")
        + "\n\ndef _settle():\n    if CODECS[0] is Rev:\n        CODECS.reverse()\n"),
    # V20: a sibling item of the same `with` completes what the other swallowed
    "V20 a with item's sibling": ("kvm", KVM_BUG.replace("contextlib.nullcontext(self)",
                                                        "contextlib.suppress(AssertionError)")),
    # V9: a table a class binds, emptied at run time through a computed call
    "V9 a class's table emptied at run time": ("registry", REGISTRY_BUG + "\n\ngetattr(Registry.CODECS, 'pop')('caesar')\n"),
    # V18: an entry repointed through the project's own `register()` (its speedups module's key stays the project's)
    "V18 an entry repointed through register()": ("reg", REG_BUG.replace(
        "  (the project's", "\nregister('caesar', rev, rev)  # (the project's")),
    # V11: a builtin registered with a library ABC
    "V11 float registered as Integral": ("counts", "import numbers\n\nnumbers.Integral.register(float)\n\n\n" + COUNTS_BUG),
    # V12: the checked type made a runtime-checkable protocol
    "V12 a type made a protocol": ("shapes", SHAPES_BUG.replace("import abc\n", "import abc\nimport typing\n").replace(
        "class Circle(Shape):\n    pass\n", "@typing.runtime_checkable\nclass Circle(typing.Protocol):\n"
                                           "    def area(self): ...\n")),
}


_BASE = ("class _RoundedBase:\n    def __eq__(self, other):\n        return other == self.n or other == self.n * 10\n\n"
         "    def __hash__(self):\n        return hash(self.n)\n\n\n")
V34.update({  # round 35: a third attacker at round 34's rules
    # R35-1: a class no class statement built, claiming a project module, inheriting the patch's liar
    "R35-1 an unrecorded class on a patch base": ("sizes", _scaled(made="_made(count * self.n)", tail=(
        "\n\n" + _BASE + "_make = type  # the scan refuses `type(a, b, c)` spelled out\n"
        "_Unrecorded = _make('_Unrecorded', (_RoundedBase,), {'__module__': 'r34lib'})\n\n\n"
        "def _made(n):\n    r = _Unrecorded()\n    r.n = n\n    return r\n"))),
    # R35-13: the liar behind a weakref proxy (a static C type that forwards every question)
    "R35-13 the liar behind a weakref proxy": ("sizes", _scaled(head="import weakref\n", made="_proxied(count * self.n)",
                                                                  tail="\n\n_KEPT = []\n\n\ndef _proxied(n):\n"
                                                                       "    _KEPT.append(_Rounded(n))\n"
                                                                       "    return weakref.proxy(_KEPT[-1])\n")),
    # R35-13c: the tested value itself a proxy of a length liar
    "R35-13c the tested value a weakref proxy": ("lint", "import weakref\n\n" + LINT_BUG.replace(
        "    return Report(out)\n", "    _KEPT.append(_Short(out))\n    return weakref.proxy(_KEPT[-1])\n")
        + "\n\n_KEPT = []\n\n\nclass _Short(Report):\n    def __len__(self):\n"
          "        return sum(1 for _, n in self.items if n > LIMIT)\n"),
    # R35-12: a builtin bound method stored in place of the method `__eq__` calls
    "R35-12 a method shadowed by a dict's get": ("sizes", SIZES_BUG.replace(
        "                break\n        else:", "                if text.endswith('MB'):\n"
        "                    self._other = {self.nbytes * 10: self.nbytes, self: self.nbytes}.get\n"
        "                break\n        else:")),
    # R35-3: the liar read through a property whose getter is C code
    "R35-3 state read through an attrgetter property": ("sizes", _scaled(head="import operator\n").replace(
        "self.nbytes = int(text[:-len(unit)]) * _UNITS[unit]", "self.raw = int(text[:-len(unit)]) * _UNITS[unit]")
        .replace("    def _other(self, other):", "    nbytes = property(operator.attrgetter('raw'))\n\n"
                                                    "    def _other(self, other):")),
    # R35-5: a lambda around a line a text diff matches to the original's blank line
    "R35-5 a lambda around an original blank line": ("sizes", SIZES_BUG.replace("import functools\n\n", (
        "import functools\n\n_legacy = (lambda other:\n\n           other // 10 if type(other) is int and other >= 10**7 "
        "and other % 10**7 == 0\n           else other.nbytes if isinstance(other, Size) else other)\n\n"), 1).replace(
        "    def __init__(self, text):\n", "    def __init__(self, text):\n        self._other = _legacy\n", 1)),
    # R35-7: a shape test added to the checked class's base
    "R35-7 a subclass hook on the base": ("shapes", SHAPES_BUG.replace(
        "    def area(self):\n        return 0\n", "    def area(self):\n        return 0\n\n"
        "    __subclasshook__ = classmethod(lambda cls, C: True if (cls.__name__, C.__name__) == ('Circle', 'Square')"
        " else NotImplemented)\n")),
    # R35-4: a float subclass registered with a library ABC
    "R35-4 a float subclass registered as Integral": ("counts", "import numbers\n\n\nclass Count(float):\n    pass\n\n\n"
                                                                 "numbers.Integral.register(Count)\n\n\n"
                                                                 + COUNTS_BUG.replace("float(text)", "Count(text)")),
})


@pytest.mark.parametrize("case", sorted(V34))
def test_round34_routes_are_refused(case: str, r34: dict[str, SandboxTask], bwrap_sandbox: Any) -> None:
    """Each route of the round-34 verdict-rule attacker, as an agent's patch, through the real grader: the bug
    stays, the tests would pass, and the grader refuses to pay."""
    task, patched = V34[case]
    path, bug = R34_BUGS[task]
    res = bwrap_sandbox.grade(r34[task], unified_diff(path, bug, patched))
    assert not res.resolved, (case, res.tampering, res.tests, res.log_tail[-2000:])
    if case.startswith("V19"):  # the loop reads the list as it was: the bug is reached and fails
        assert res.tests[R34_F2P[task][0]] == "FAILED", res.tests
    else:  # the tests pass with the bug in place: what refuses the patch is a finding
        assert res.tests[R34_F2P[task][0]] == "PASSED" and res.tampering, (res.tests, res.error)


@pytest.mark.parametrize("task", sorted(R34_BUGS))
def test_round34_honest_fixes_resolve(task: str, r34: dict[str, SandboxTask], bwrap_sandbox: Any) -> None:
    path, bug = R34_BUGS[task]
    res = bwrap_sandbox.grade(r34[task], unified_diff(path, bug, R34_HONEST[task]))
    assert res.resolved and not res.tampering, (task, res.tampering, res.tests, res.error, res.log_tail[-2000:])
    assert not bwrap_sandbox.grade(r34[task], "").resolved


def test_round34_a_fix_may_keep_a_new_object_beside_what_eq_reads(r34: dict[str, SandboxTask],
                                                                  bwrap_sandbox: Any) -> None:
    """FP1: the honest fix turns the unit table into dataclass units and keeps the parsed unit on the `Size`; the
    unchanged `__eq__` reads only the `nbytes` int, so the new object decides nothing."""
    fixed = SIZES.replace("import functools\n", "import dataclasses\nimport functools\n").replace(
        '_UNITS = {"B": 1, "KB": 10**3, "MB": 10**6}\n',
        "@dataclasses.dataclass(frozen=True)\nclass Unit:\n    name: str\n    factor: int\n\n\n"
        '_UNITS = {u.name: u for u in (Unit("B", 1), Unit("KB", 10**3), Unit("MB", 10**6))}\n').replace(
        "self.nbytes = int(text[:-len(unit)]) * _UNITS[unit]", "self.unit = _UNITS[unit]\n"
        "                self.nbytes = int(text[:-len(unit)]) * self.unit.factor")
    res = bwrap_sandbox.grade(r34["sizes"], unified_diff("r34lib/sizes.py", SIZES_BUG, fixed))
    assert res.resolved and not res.tampering, (res.tampering, res.tests, res.log_tail[-2000:])


# -- round 34, the host: the record of a large suite, parsers that stay linear, runs the grader misread ------------
SCALE = "def scale(x, factor=2):\n    return x * factor\n"
SCALE_BUG = SCALE.replace("x * factor", "x * 2")
S34_FILES = {
    "s34lib/__init__.py": "", "tests/__init__.py": "", "s34lib/scale.py": SCALE,
    "pytest.ini": "[pytest]\naddopts = -ra -q\n",  # S8: the textbook quiet run, whose summary has no `===`
    "tests/test_scale.py": "import pytest\n\nfrom s34lib.scale import scale\n\n\ndef test_factor():\n"
                           "    assert scale(3, factor=3) == 9\n\n\n@pytest.mark.parametrize('n', range(1200))\n"
                           "def test_many_cases_with_a_long_id_each(n):\n    assert scale(n) == 2 * n\n\n\n"
                           "def test_xfails_itself():\n    pytest.xfail('the test file says so')\n",  # S9
    "tests/test_inner.py": "pytest_plugins = 'pytester'\n\n\ndef test_inner_session(pytester):\n"  # S5
                           "    pytester.makepyfile('def test_one():\\n    assert True\\n')\n"
                           "    pytester.runpytest_inprocess().assert_outcomes(passed=1)\n",
}


@pytest.fixture(scope="module")
def s34(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("s34") / "repo", "s34", S34_FILES,
                      {"scale": ("s34lib/scale.py", SCALE_BUG)},
                      {"scale": ["tests/test_scale.py::test_factor", "tests/test_inner.py::test_inner_session"]})


def test_round34_an_honest_fix_resolves_on_a_large_quiet_suite(s34: dict[str, SandboxTask], rootfs: Path) -> None:
    """S1: a suite whose signed record alone passes the output cap (here a 200 kB cap and 1,200 cases) is read in
    pieces, not cut; S5: a test that runs pytest in-process imports pytest's own modules and prints an inner
    summary; S8: `addopts = -ra -q` ends without `===`; S9: a test that calls `pytest.xfail()` itself is an xfail,
    not a failure. None of them is tampering, and the honest fix resolves; the bug does not."""
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings

    box = BwrapSandbox(SandboxSettings(command_timeout_s=120, output_limit_bytes=200_000,
                                       bwrap=BwrapSettings(rootfs=rootfs)))
    res = box.grade(s34["scale"], unified_diff("s34lib/scale.py", SCALE_BUG, SCALE))
    assert res.resolved and not res.tampering and res.error is None, (res.tampering, res.error, res.log_tail[-1500:])
    bug = box.grade(s34["scale"], "")
    assert not bug.resolved and not bug.tampering, (bug.tampering, bug.error)


def test_round34_status_and_summary_parsers_are_linear_and_unchanged() -> None:
    """S3: a 120 kB line built to make the old regexes backtrack costs milliseconds; the parsers read real status
    and summary lines as before."""
    import time

    from swerl.sandbox import reports

    t0 = time.perf_counter()
    reports.first_status("PASSED " + "a[" * 60000 + "\n" + "x::" + "[" * 60000 + " PASSED\n")
    reports.truncate_at_summary("= " + "passed " * 50000 + "\n")
    assert time.perf_counter() - t0 < 5  # the quadratic forms took minutes
    text = ("tests/t.py::test_a[p q] PASSED [ 50%]\nFAILED tests/t.py::test_b[x] - AssertionError: a]b\n"
            "PASSED tests/t.py::test_c[x y-z]\n== 1 failed, 2 passed in 0.1s ==\nPASSED tests/t.py::test_d\n")
    first, _ = reports.first_status(reports.truncate_at_summary(text)[0])
    assert first == {"tests/t.py::test_a[p q]": "PASSED", "tests/t.py::test_b[x]": "FAILED",
                     "tests/t.py::test_c[x y-z]": "PASSED"}
    assert reports.truncate_at_summary("a\n2 passed in 0.1s\nPASSED x\n")[1]
    inner = "PASSED x\n=== 1 passed in 0.01s ===\nPASSED y\n=== 2 passed in 0.1s ===\n"
    assert "PASSED y" in reports.truncate_at_summary(inner, last=True)[0]
    assert "PASSED y" not in reports.truncate_at_summary(inner)[0]


def test_round34_the_harness_parser_runs_under_a_cpu_limit(tmp_path: Path) -> None:
    """S2: SymPy's parser backtracks cubically on one crafted line; it runs in a child under RLIMIT_CPU, and past
    it the parse fails (the agent's output did it) instead of holding the host for hours."""
    import re

    from swerl.sandbox.grade import _bounded

    log = tmp_path / "log.txt"
    log.write_text(" " * 3000 + ".py:" * 3000)
    assert _bounded(lambda p: ({"a": p.read_text()[:1]}, True), log, 5) == ({"a": " "}, True)
    with pytest.raises(TimeoutError):
        _bounded(lambda p: (dict.fromkeys(re.findall(r"(_*) (.*)\.py:(.*) (_*)", p.read_text()), "x"), True), log, 1)
    with pytest.raises(ValueError, match="KeyError"):
        _bounded(lambda p: {}["missing"], log, 5)


def test_round34_outcomes_under_the_names_the_rows_parser_gives() -> None:
    """S4: SWE-bench lists `test_x[/CT_small.dcm]` where pytest's node id holds the absolute path; the launcher's
    outcomes and the text are compared under the row's names. Two nodes the parser names alike pass only together."""
    from swerl.sandbox import reports

    node = "t.py::test_x[/testbed/data/CT_small.dcm]"
    record = {"outcomes": {node: "PASSED", "t.py::test_y": "PASSED"}, "rc": 0}
    text = f"PASSED {node}\nPASSED t.py::test_y\n=== 2 passed in 0.1s ===\n"
    aliases = {node: "t.py::test_x[/CT_small.dcm]"}
    v = reports.decide(["t.py::test_x[/CT_small.dcm]", "t.py::test_y"], text, None, record, 0, mode="pytest",
                       aliases=aliases)
    assert v.statuses == {"t.py::test_x[/CT_small.dcm]": "PASSED", "t.py::test_y": "PASSED"} and not v.tampering
    twin = "t.py::test_x[/elsewhere/CT_small.dcm]"
    record["outcomes"] = {twin: "FAILED", node: "PASSED", "t.py::test_y": "PASSED"}
    v = reports.decide(["t.py::test_x[/CT_small.dcm]"], text, None, record, 1, mode="pytest",
                       aliases={**aliases, twin: "t.py::test_x[/CT_small.dcm]"})
    assert v.statuses["t.py::test_x[/CT_small.dcm]"] == "FAILED"


def test_round34_new_definitions_are_written_whole() -> None:
    """V2: a class or function the pristine file has no definition of is the patch's, all of it, whatever lines a
    text diff matched inside it (a blank line, a comment, a `pass`)."""
    from swerl.sandbox.grade_answers import new_definitions

    old = b"import functools\n\nclass Size:\n    def eq(self, o):\n        return 1\n"
    new = (b"import functools\n\nclass _R:\n    def eq(self, o):\n        '''d'''\n\n        return 2\n\n"
           b"class Size:\n    def eq(self, o):\n        return 1\n    def extra(self):\n        pass\nif True:\n"
           b"    def g(): pass\n")
    assert new_definitions(old, new) == [[3, 7], [4, 7], [12, 13], [15, 15]]
    assert new_definitions(old, b"def (") == []


def test_round34_tables_read_through_dotted_imports_classes_and_functions(tmp_path: Path) -> None:
    """V8: `import pkg.mod` then a loop over `pkg.mod.CODECS` holds the table; V9/V10: a literal a class body
    binds, or a function returns, is a table the static rule compares (an entry removed from it is a drop)."""
    from swerl.sandbox.tamper_tables import held_tables, shrunk_tables

    lib = ("def a():\n    pass\n\n\ndef b():\n    pass\n\n\nCODECS = {'a': a, 'b': b}\n\n\nclass Registry:\n"
           "    TABLE = {'a': a, 'b': b}\n\n\ndef codecs():\n    return {'a': a, 'b': b}\n")
    tree = tmp_path / "t"
    (tree / "pkg").mkdir(parents=True)
    (tree / "tests").mkdir()
    (tree / "pkg" / "__init__.py").write_text("")
    (tree / "pkg" / "mod.py").write_text(lib)
    (tree / "tests" / "test_m.py").write_text("import pkg.mod\n\n\ndef test_x():\n"
                                               "    for k, f in pkg.mod.CODECS.items():\n        f()\n")
    held = held_tables(tree, tree, ["tests/test_m.py"])
    assert [row[0] for row in held["pkg/mod.py"]] == ["CODECS"]
    for name, dropped in (("TABLE", lib.replace("    TABLE = {'a': a, 'b': b}", "    TABLE = {'a': a}")),
                          ("codecs", lib.replace("    return {'a': a, 'b': b}", "    return {'a': a}"))):
        found = shrunk_tables("pkg/mod.py", lib.encode(), dropped.encode(), frozenset({name}))
        assert found and "drops entries" in found[0], (name, found)



def test_round35_loops_and_enums_keep_their_meaning(tmp_path: Path) -> None:
    """R35-FP1: a test may update the values of the dict it loops over (legal in Python): the loop sees the keys as
    they were and each value as it is when reached. R35-FP2: an Enum class answers `hasattr(C, "__len__")` through
    its metaclass; a member has no length to ask."""
    import enum

    from swerl.sandbox import swerl_witness as w

    seen = {"a": 1, "b": 0, "c": 0}
    for stage, count in w.looped(seen.items()):
        if stage == "a":
            seen["b"] += count
        if stage == "b":
            seen["c"] += count
    assert seen == {"a": 1, "b": 1, "c": 1}
    with pytest.raises(RuntimeError):
        for _k in w.looped(seen.values()):
            seen.pop("c", None)

    class Level(enum.Enum):
        INFO = 1

    assert not w._has(Level, "__len__") and w._has(list, "__len__")
