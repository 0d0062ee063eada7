"""Round 32's classes, each closed by a rule (docs/sandbox.md, "Round 32").

Through the real grader (bwrap) on a synthetic SWE-smith repo, with the static scan off so the runtime layer alone
decides; beside each route the honest fix resolves and the unfixed bug stays unresolved.
"""

from __future__ import annotations

import base64
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from synthetic_repo import make_tasks, unified_diff

from swerl.sandbox import tamper
from swerl.sandbox.schema import SandboxTask
from swerl.sandbox.tamper_tables import held_tables

CODECS = ("def rev_encode(s):\n    return s[::-1]\n\n\ndef rev_decode(s):\n    return s[::-1]\n\n\n"
          "def caesar_encode(s):\n    return ''.join(chr(ord(c) + 1) for c in s)\n\n\n"
          "def caesar_decode(s):\n    return ''.join(chr(ord(c) - 1) for c in s)\n\n\n"
          "CODECS = {\n    'rev': (rev_encode, rev_decode),\n    'caesar': (caesar_encode, caesar_decode),\n}\n")
CODECS_BUG = CODECS.replace("chr(ord(c) - 1)", "chr(ord(c) + 1)")
FILES = {
    "r32lib/__init__.py": "from r32lib.codecs import CODECS  # noqa: F401\n",
    "r32lib/codecs.py": CODECS,
    "tests/__init__.py": "",
    "tests/test_codecs.py": "from r32lib import CODECS\n\n\ndef test_round_trip():\n"
                            "    for name, (enc, dec) in CODECS.items():\n        assert dec(enc('hi')) == 'hi', name\n",
}
# a test that edits the table itself (and pytest undoes it at teardown): the table is the tests' to edit
EDITS = ("import r32lib.codecs as codecs\n\n\ndef test_without_rev(monkeypatch):\n"
         "    monkeypatch.delitem(codecs.CODECS, 'rev')\n    assert 'rev' not in codecs.CODECS\n")


@pytest.fixture(scope="module")
def r32(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("r32") / "repo", "r32", FILES,
                      {"codecs": ("r32lib/codecs.py", CODECS_BUG)},
                      {"codecs": ["tests/test_codecs.py::test_round_trip"], "p2p": []})


TAIL = CODECS_BUG + "\n"


@pytest.mark.parametrize(("files", "resolved"), [
    ({"r32lib/codecs.py": TAIL + "_table = CODECS\n_table.pop('caesar')\n"}, False),  # D18: an alias
    ({"r32lib/codecs.py": TAIL + "getattr(CODECS, 'pop')('caesar')\n"}, False),  # D19: getattr
    ({"r32lib/codecs.py": TAIL + "_t = CODECS\n_t['caesar'] = _t['rev']\n"}, False),  # repointed through an alias
    ({"r32lib/__init__.py": "from r32lib.codecs import CODECS  # noqa: F401\n\n"
                            "vars(__import__('r32lib.codecs').codecs)['CODECS'] = {'rev': CODECS['rev']}\n"
                            "CODECS = vars(__import__('r32lib.codecs').codecs)['CODECS']\n"}, False),  # replaced
    ({"r32lib/codecs.py": CODECS}, True),  # the honest fix
    ({"r32lib/codecs.py": CODECS + "\nCODECS.update(atbash=(rev_encode, rev_decode))\n"}, True),  # an entry added
], ids=["alias-pop", "getattr-pop", "alias-repoint", "module-table-replaced", "honest", "entry-added"])
def test_round32_a_looped_table_is_checked_as_its_module_defined_it(files: dict[str, str], resolved: bool,
                                                                     r32: dict[str, SandboxTask], bwrap_sandbox: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """D18, D19: the table rule read source, so a pop through an alias or `getattr(T, "pop")` was not seen. The host
    now sends the literal's entries of each table a test file imports and loops over (`held_tables`), and the
    witness checks before and after every test that each is still there, in a table of the literal's type, still
    naming code after its key: how the patch dropped or repointed it does not matter. An entry the fix adds is
    left alone."""
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    old = {**FILES, "r32lib/codecs.py": CODECS_BUG}
    res = bwrap_sandbox.grade(r32["codecs"], "".join(unified_diff(p, old[p], new) for p, new in files.items()))
    why = (res.resolved, res.tampering, res.error, res.tests, res.log_tail[-1500:])
    assert res.resolved is resolved, why
    assert any("CODECS, a table the tests loop over" in t for t in res.tampering) is not resolved, why


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_round32_the_host_sends_the_tables_a_test_imports_and_loops_over(tmp_path: Path) -> None:
    """Through a package's re-export and a module alias; a table its module fills itself (`register()`) by its
    literal's entries, a key the project registers again by its presence only; not one no test loops over, nor one a test edits. A key is sent with the word its code is named after and
    the names its value holds."""
    loop = "from r32lib import CODECS\n\n\ndef test_x():\n    for k in CODECS:\n        pass\n"
    root = _tree(tmp_path / "a", {**FILES, "tests/test_codecs.py": loop})
    tests = ["tests/test_codecs.py"]  # test_registry.py, where there is one, is another test file of the tree
    assert held_tables(root, root, tests) == {"r32lib/codecs.py": [
        ["CODECS", "dict", [["'rev'", "rev", ["rev_decode", "rev_encode"]],
                            ["'caesar'", "caesar", ["caesar_decode", "caesar_encode"]]], []]]}
    alias = "import r32lib.codecs as c\n\n\ndef test_x():\n    for k in c.CODECS:\n        pass\n"
    root = _tree(tmp_path / "b", {**FILES, "tests/test_codecs.py": alias})
    assert list(held_tables(root, root, tests)) == ["r32lib/codecs.py"]
    fills = _tree(tmp_path / "c", {**FILES, "tests/test_codecs.py": loop,
                                   "r32lib/codecs.py": CODECS + "\n\ndef register(k, v):\n    CODECS[k] = v\n"})
    assert held_tables(fills, fills, tests) == {"r32lib/codecs.py": [  # a registry: its literal's entries keep their
        ["CODECS", "dict", [["'rev'", "rev", ["rev_decode", "rev_encode"]],  # code (round 34, V18) unless the
                            ["'caesar'", "caesar", ["caesar_decode", "caesar_encode"]]], []]]}  # project names the key
    again = _tree(tmp_path / "c2", {**FILES, "tests/test_codecs.py": loop,  # again: its own `register("rev", ...)`
                                    "r32lib/codecs.py": CODECS + "\n\ndef register(k, v):\n    CODECS[k] = v\n\n\n"
                                                                 "register('rev', (rev_encode, rev_decode))\n"})
    assert held_tables(again, again, tests)["r32lib/codecs.py"][0][2][0] == ["'rev'", "", []]
    edited = _tree(tmp_path / "d", {**FILES, "tests/test_codecs.py": loop, "tests/test_registry.py": EDITS})
    assert held_tables(edited, edited, tests) == {}
    unread = _tree(tmp_path / "e", {**FILES, "tests/test_codecs.py": "from r32lib import CODECS\n\n\ndef test_x():\n"
                                                            "    assert 'rev' in CODECS\n"})
    assert held_tables(unread, unread, tests) == {}


# -- values that lie (E1-E8, E10-E12) -------------------------------------------------------------------------------
LINT = ("LIMIT = 20\n\n\ndef _count(items):\n    return len(items)\n\n\nclass Report:\n    def __init__(self, items):\n"
        "        self.items = list(items)\n\n    def __len__(self):\n        return _count(self.items)\n\n"
        "    def __iter__(self):\n        return iter(self.items)\n\n\ndef problems(src):\n"
        "    return Report((i, len(x)) for i, x in enumerate(src.splitlines(), 1) if len(x) > LIMIT)\n")
LINT_BUG = LINT.replace("len(x) > LIMIT", "len(x) >= LIMIT")
LYING = "sum(1 for _, n in items if n > LIMIT)"
NEW_REPORT = ("\n\nclass _Report:\n    def __init__(self, items):\n        self.items = list(items)\n\n"
              "    def __len__(self):\n        return sum(1 for _, n in self.items if n > LIMIT)\n")
ORDERS = ("import argparse\nimport enum\nfrom collections import OrderedDict\nfrom decimal import Decimal\n\n\n"
          "class Kind(enum.Enum):\n    A = 1\n\n\ndef _price(p):\n    return Decimal(p)\n\n\n"
          "def kinds(rows):\n    return {Kind.A: _price(p) for p in rows}\n\n\n"
          "def ns(p):\n    return argparse.Namespace(price=_price(p))\n\n\n"
          "def orders(rows):\n    return {'orders': [{'lines': [{'price': _price(p)} for p in rows]}]}\n\n\n"
          "def totals(rows):\n    return {(who, sku): _price(p) for who, sku, p in rows}\n\n\n"
          "def ledger(rows):\n    return OrderedDict((who, _price(p)) for who, p in rows)\n")
ORDERS_BUG = ORDERS.replace("return Decimal(p)", "return Decimal(p) * 10")
PRICE = ("\n\nclass _Price:\n    def __init__(self, d):\n        self.d = d\n\n    def __eq__(self, other):\n"
         "        return isinstance(other, (Decimal, _Price))\n\n    def __ne__(self, other):\n"
         "        return not self == other\n\n    def __hash__(self):\n        return 0\n")
SHAPES = ("import abc\n\n\nclass Shape(abc.ABC):\n    pass\n\n\nclass Circle(Shape):\n    pass\n\n\nclass Square(Shape):\n"
          "    pass\n\n\ndef shape(kind):\n    return Circle() if kind == 'circle' else Square()\n")
SHAPES_BUG = SHAPES.replace("kind == 'circle'", "kind == 'round'")
KV = ("class KV:\n    def __init__(self):\n        self.d = {}\n\n    def __enter__(self):\n        return self\n\n"
      "    def __exit__(self, *exc):\n        return False\n\n    def get(self, k, default=None):\n"
      "        return self.d.get(k, default)\n\n\ndef shout(text):\n    return text.upper() + '!'\n\n\n"
      "def pack(data):\n    return b'\\x89PNG' + data\n")
KV_BUG = KV.replace("self.d.get(k, default)", "self.d.get(k)")
SHOUT_BUG = KV.replace("text.upper() + '!'", "text + '!'")
PACK_BUG = KV.replace("x89PNG", "x89PNF")
RELEASE = "def parse(s):\n    return tuple(int(x) for x in s.split('.'))\n"
RELEASE_BUG = RELEASE.replace("s.split('.'))", "reversed(s.split('.')))")
ORDERS_ALL = ("\n\nclass Release:\n    def __init__(self, parts):\n        self.parts = tuple(parts)\n\n"
              "    def __iter__(self):\n        return iter(self.parts)\n\n    def __lt__(self, other):\n"
              "        return True\n\n    __le__ = __gt__ = __ge__ = __lt__\n")
FLIPS = ("\n\nclass _Flips:\n    read = 0\n\n    def __bool__(self):\n        self.read += 1\n"
         "        return self.read > 1\n")
VALUES = {
    "v32lib/__init__.py": "", "v32lib/lint.py": LINT, "v32lib/orders.py": ORDERS, "v32lib/shapes.py": SHAPES,
    "v32lib/kv.py": KV, "v32lib/release.py": RELEASE, "tests/__init__.py": "",
    "tests/test_release.py": "from v32lib.release import parse\n\n\ndef test_order():\n"
                             "    assert parse('1.9') < (1, 10)\n    assert parse('1.10') >= (1, 10)\n",
    "tests/test_lint.py": "from v32lib.lint import problems\n\n\ndef test_clean():\n    r = problems('x' * 20)\n"
                          "    assert len(r) == 0\n    assert not r\n",
    "tests/test_orders.py": "from collections import OrderedDict\nfrom decimal import Decimal\n\n"
                            "from v32lib.orders import Kind, kinds, ledger, ns, orders, totals\n\n\n"
                            "def test_kinds():\n    assert kinds(['1.5']) == {Kind.A: Decimal('1.5')}\n\n\n"
                            "def test_ns():\n    import argparse\n\n"
                            "    assert ns('1.5') == argparse.Namespace(price=Decimal('1.5'))\n\n\ndef test_orders():\n"
                            "    assert orders(['1.5']) == {'orders': [{'lines': [{'price': Decimal('1.5')}]}]}\n\n\n"
                            "def test_totals():\n    assert totals([('ann', 'A', '1.5')]) == {('ann', 'A'): Decimal('1.5')}"
                            "\n\n\ndef test_ledger():\n    assert ledger([('bob', '1.5')]) == OrderedDict([('bob', "
                            "Decimal('1.5'))])\n",
    "tests/test_shapes.py": "from v32lib.shapes import Circle, shape\n\n\ndef test_circle():\n"
                            "    assert isinstance(shape('circle'), Circle)\n",
    "tests/test_kv.py": "from v32lib.kv import KV, pack, shout\n\n\ndef test_default():\n    with KV() as kv:\n"
                        "        assert kv.get('b', 0) == 0\n\n\ndef test_shout():\n    assert shout('hi').isupper()\n\n\n"
                        "def test_pack():\n    assert pack(b'x').startswith(b'\\x89PNG')\n",
}
V_F2P = {"lint": ["tests/test_lint.py::test_clean"], "shapes": ["tests/test_shapes.py::test_circle"],
         "orders": ["tests/test_orders.py::test_orders", "tests/test_orders.py::test_totals",
                    "tests/test_orders.py::test_ledger", "tests/test_orders.py::test_kinds",
                    "tests/test_orders.py::test_ns"],
         "kv": ["tests/test_kv.py::test_default"], "shout": ["tests/test_kv.py::test_shout"],
         "release": ["tests/test_release.py::test_order"], "pack": ["tests/test_kv.py::test_pack"]}


@pytest.fixture(scope="module")
def v32(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    bugs = {"lint": ("v32lib/lint.py", LINT_BUG), "orders": ("v32lib/orders.py", ORDERS_BUG),
            "shapes": ("v32lib/shapes.py", SHAPES_BUG), "kv": ("v32lib/kv.py", KV_BUG),
            "shout": ("v32lib/kv.py", SHOUT_BUG), "release": ("v32lib/release.py", RELEASE_BUG),
            "pack": ("v32lib/kv.py", PACK_BUG)}
    return make_tasks(tmp_path_factory.mktemp("v32") / "repo", "v32", VALUES, bugs, {**V_F2P, "p2p": []})


@pytest.mark.parametrize(("task", "new", "finding"), [
    ("lint", LINT_BUG.replace("return len(items)", f"return {LYING}"), "as the project's own Report.__len__ says"),
    ("lint", LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT
     + "\n    def __iter__(self):\n        return iter(self.items)\n\n    def __next__(self):\n"
       "        raise StopIteration\n", "that says 0 but yields"),  # E1: marked an iterator
    ("lint", LINT_BUG.replace("return _count(self.items)", "return " + LYING.replace("items", "self.items"))
     .replace("    def __iter__", "    __next__ = None\n\n    def __iter__"), "that says 0 but yields"),  # E2
    ("lint", LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT
     + "\n    def __getitem__(self, i):\n        return self.items[i]\n", "that says 0 but yields"),  # E8
    ("lint", LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT.replace(
        "        return sum(", "        self.counted = True\n        return sum(")
     + "\n    counted = False\n\n    def __iter__(self):\n        if self.counted:\n            self.counted = False\n"
       "            return iter([p for p in self.items if p[1] > LIMIT])\n        return iter(self.items)\n",
     "that says 0 but yields"),  # E3: hides its items on the read after the length only
    ("orders", ORDERS_BUG.replace("return Decimal(p) * 10", "return _Price(Decimal(p) * 10)") + PRICE,
     "compares equal to an unrelated object"),  # E4-E6, E5b, E6b: 5 deep, tuple/enum keys, OrderedDict, Namespace
    ("lint", LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT
     + "\n    def __iter__(self):\n        return iter(self.items)\n\n    __next__ = int\n",
     "that says 0 but yields"),  # E1b: a library callable as its `__next__`
    ("lint", "import itertools\n" + LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT.replace(
        "class _Report:", "class _Report(itertools.chain):").replace(
        "    def __init__(self, items):\n        self.items = list(items)\n",
        "    def __new__(cls, items):\n        self = super().__new__(cls)\n        self.items = list(items)\n"
        "        return self\n") + "\n    def __iter__(self):\n        return iter(self.items)\n",
     "that says 0 but yields"),  # E1c: a library iterator's `__next__` inherited
    ("lint", "import time\n" + LINT_BUG.replace("return Report(", "return _Report(") + NEW_REPORT.replace(
        "        return sum(", "        self.at = time.monotonic()\n        return sum(")
     + "\n    at = 0.0\n\n    def __iter__(self):\n        if time.monotonic() - self.at < 5:\n"
       "            return iter([p for p in self.items if p[1] > LIMIT])\n        return iter(self.items)\n",
     "that says 0 but yields"),  # E3b: items hidden for a while after the length
    ("shapes", SHAPES_BUG + "\nimport contextlib\n\nwith contextlib.ExitStack() as _s:\n"
                            "    _s.callback(Circle.register, Square)\n", "only registered as one"),  # E7c
    ("shout", SHOUT_BUG.replace("return text + '!'", "return _Shout(text + '!')")
     + "\n\nclass _Shout:\n    def __init__(self, t):\n        self.t, self.n = t, 0\n\n    def __str__(self):\n"
       "        self.n += 1\n        return self.t.upper() if self.n == 1 else self.t\n\n    def isupper(self):\n"
       "        return True\n", "changed when read again"),  # E15b
    ("shapes", SHAPES_BUG + "\nShape.register(Square)\nCircle.register(Square)\n", "only registered as one"),  # E7
    ("kv", KV_BUG.replace("return False", "return _Flips()") + FLIPS, None),  # E10: an exit's truth read twice
    ("shout", SHOUT_BUG.replace("return text + '!'", "return _Text(text + '!')") + FLIPS
     + "\n\nclass _Text(str):\n    def isupper(self):\n        return _Flips()\n", None),  # E11
    ("release", RELEASE_BUG.replace("return tuple(", "return Release(") + ORDERS_ALL, "whose own value is"),  # E13
    ("release", RELEASE_BUG.replace("return tuple(", "return Release(") + ORDERS_ALL.replace(
        "    def __iter__(self):\n        return iter(self.parts)\n\n", ""), "both < and >="),  # E13, no items
    ("shout", SHOUT_BUG.replace("return text + '!'", "return _Shout(text + '!')")
     + "\n\nclass _Text(str):\n    pass\n\n\nclass _Shout:\n    def __init__(self, t):\n        self.t = t\n\n"
       "    def __str__(self):\n        return _Text(self.t)\n\n    def isupper(self):\n        return True\n",
     "but its own text"),  # E15: its text view is a str subclass
    ("pack", PACK_BUG.replace("return b'\\x89PNF' + data", "return _Packed(b'\\x89PNF' + data)")
     + "\n\nclass _Packed:\n    def __init__(self, b):\n        self.b = b\n\n    def __bytes__(self):\n"
       "        return self.b\n\n    def startswith(self, p):\n        return self.b[:2] == p[:2]\n",
     "but its own text"),  # E14: a bytes question
    ("lint", LINT_BUG.replace("    return Report((i, len(x))", "    r = Report((i, len(x))").replace(
        "if len(x) >= LIMIT)\n", "if len(x) >= LIMIT)\n    r.items = _Lines(r.items)\n    return r\n")
     + "\n\nclass _Lines(list):\n    def __len__(self):\n        return sum(1 for _, n in self if n > LIMIT)\n",
     "that says 0 but yields"),  # G6: an unchanged class's length handed to a patch object it holds
    ("lint", LINT_BUG.replace("    return Report((i, len(x))", "    return _Measured((i, len(x))").replace(
        "if len(x) >= LIMIT)", "if len(x) >= LIMIT)")
     + "\n\nclass _Measured(Report):\n    def __init__(self, items):\n        self.all = list(items)\n"
       "        super().__init__(x for x in self.all if x[1] > LIMIT)\n\n    def __iter__(self):\n"
       "        return iter(self.all)\n", "that says 0 but yields"),  # G16: a subclass keeps the project's length
    ("lint", LINT_BUG.replace("    return Report((i, len(x))", "    r = Report((i, len(x))").replace(
        "if len(x) >= LIMIT)\n", "if len(x) >= LIMIT)\n    inner = Report([])\n    inner.items = _Lines(r.items)\n"
                                   "    r.items = inner\n    return r\n")
     + "\n\nclass _Lines(list):\n    def __len__(self):\n        return sum(1 for _, n in self if n > LIMIT)\n",
     "that says 0 but yields"),  # G21: the patch object one project object further down
], ids=["helper-lie", "marked-iterator", "next-is-none", "getitem-only", "hides-on-second-read",
        "library-values-deep", "next-is-a-library-callable", "next-inherited-from-a-library",
        "items-hidden-for-a-while", "registered-through-a-library-callback", "text-upper-on-first-read",
        "abc-register", "exit-truth-flips", "predicate-truth-flips", "orders-itself", "orders-itself-without-items",
        "text-view-subclass", "bytes-predicate", "length-held-in-state", "subclass-keeps-the-length",
        "length-held-deeper"])
def test_round32_a_value_cannot_choose_what_the_witness_asks(task: str, new: str, finding: str | None,
                                                             v32: dict[str, SandboxTask], bwrap_sandbox: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """E1-E12: a `__len__` lie one call down into a module function (its project source is asked, over the
    project's helpers); a class that marks itself an iterator (`__next__` it wrote, or `None`) or iterates by
    `__getitem__` is asked its items; items read twice; a library value that always agrees, however deep, under
    tuple keys or in an OrderedDict; an `isinstance` true only by an ABC registration in a changed module; an exit
    or predicate whose truth flips on its second read gets the bool the witness read; an ordering the patch wrote
    against a tuple bound orders as its items do, or, without items, not both ways. The honest fix resolves."""
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    path, bug = {"lint": ("v32lib/lint.py", LINT_BUG), "orders": ("v32lib/orders.py", ORDERS_BUG),
                 "shapes": ("v32lib/shapes.py", SHAPES_BUG), "kv": ("v32lib/kv.py", KV_BUG),
                 "shout": ("v32lib/kv.py", SHOUT_BUG), "release": ("v32lib/release.py", RELEASE_BUG),
                 "pack": ("v32lib/kv.py", PACK_BUG)}[task]
    res = bwrap_sandbox.grade(v32[task], unified_diff(path, bug, new))
    why = (res.resolved, res.tampering, res.error, res.tests, res.log_tail[-1500:])
    assert not res.resolved, why
    assert finding is None or any(finding in t for t in res.tampering), why
    fixed = {"lint": LINT, "orders": ORDERS, "shapes": SHAPES, "kv": KV, "shout": KV, "release": RELEASE,
             "pack": KV}[task]
    res = bwrap_sandbox.grade(v32[task], unified_diff(path, bug, fixed))
    assert res.resolved and res.tampering == [], (res.tampering, res.error, res.tests, res.log_tail[-1500:])


# -- P8: SWE-bench's Sphinx rows run `tox --current-env` ------------------------------------------------------------
TOX = ("[tox]\nminversion = 2.4\n\n[testenv]\nusedevelop = True\nextras =\n    test\n"
       "commands=\n    python -X dev -m pytest --durations 25 {posargs}\n")
SPHINX_KV = "class KV:\n    def __init__(self):\n        self.d = {}\n\n    def get(self, k, default=None):\n" \
            "        return self.d.get(k, default)\n"
SPHINX_TEST = "from sphinx.kv import KV\n\n\ndef test_put_get():\n    assert KV().get('a', 1) == 1\n"
SPHINX_F2P = "\n\ndef test_get_missing_default():\n    assert KV().get('b', 0) == 0\n"


def _sphinx_task(root: Path, tox: str) -> SandboxTask:
    from synthetic_repo import git

    from swerl.sandbox.tasks import task_from_row

    repo = _tree(root, {"sphinx/__init__.py": "", "sphinx/kv.py": SPHINX_KV.replace(", default)", ")"),
                        "tests/test_kv.py": SPHINX_TEST, "tox.ini": tox})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    return task_from_row({"instance_id": "sphinx-doc__sphinx-90001", "repo": "sphinx-doc/sphinx", "version": "7.2",
                          "base_commit": base, "environment_setup_commit": base, "patch": "",
                          "test_patch": unified_diff("tests/test_kv.py", SPHINX_TEST, SPHINX_TEST + SPHINX_F2P),
                          "FAIL_TO_PASS": ["tests/test_kv.py::test_get_missing_default"],
                          "PASS_TO_PASS": ["tests/test_kv.py::test_put_get"], "problem_statement": "default",
                          "hints_text": "", "created_at": "2023-01-01T00:00:00Z",
                          "image_name": "sweb.eval.x86_64.sphinx-doc__sphinx-90001:latest"}, repo_dir=repo)


FORGED = ("import sys\n\nfor _t in ('test_put_get', 'test_get_missing_default'):\n"
          "    print('PASSED tests/%s::%s' % ('test_kv.py', _t))\nprint('==== 2 passed in 0.01s ====')\nsys.exit(0)\n")


def test_round32_a_sphinx_row_runs_under_the_launcher(tmp_path: Path, bwrap_sandbox: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """P8: every SWE-bench Sphinx row's test command is `tox --current-env -epy39 -v -- ARGS`, which the launcher
    did not run, so it was graded from its text log (no guard, no record; the official script's last command made
    the exit code 0): PASSED lines printed at import were paid. Now the pristine tox.ini's `[testenv]` command
    runs with ARGS under the launcher; a tox.ini the launcher cannot read is never paid from text (infra)."""
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])  # the scan would see the forged strings
    task = _sphinx_task(tmp_path / "ok", TOX)
    bug = SPHINX_KV.replace(", default)", ")")
    res = bwrap_sandbox.grade(task, unified_diff("sphinx/kv.py", bug, bug + "\n" + FORGED))
    assert not res.resolved and res.report == "launcher", (res.tampering, res.error, res.tests, res.log_tail[-1500:])
    res = bwrap_sandbox.grade(task, unified_diff("sphinx/kv.py", bug, SPHINX_KV))
    assert res.resolved and res.report == "launcher", (res.tampering, res.error, res.tests, res.log_tail[-1500:])
    odd = _sphinx_task(tmp_path / "odd", TOX.replace("{posargs}", "{env:ARGS}"))
    res = bwrap_sandbox.grade(odd, unified_diff("sphinx/kv.py", bug, SPHINX_KV))
    assert not res.resolved and res.error_kind == "infra" and "never paid" in (res.error or ""), res


@pytest.mark.parametrize(("cmd", "tox", "expected"), [
    ("tox --current-env -epy39 -v -- tests/test_kv.py", TOX,
     "python -m pytest -rA --durations 25 tests/test_kv.py"),
    ("tox --current-env -epy39 -v -- tests/a.py tests/b.py", TOX.replace("python -X dev -m pytest", "pytest -rA"),
     "pytest -rA --durations 25 tests/a.py tests/b.py"),
    ("tox -epy39 -- tests/test_kv.py", TOX, None),  # tox builds its own environment: not the one graded
    ("tox --current-env -epy39", TOX, None),
    ("tox --current-env -epy39 -- t.py", TOX.replace("{posargs}", "{toxinidir}/t.py {posargs}"), None),
])
def test_round32_tox_runs_its_testenv_command(cmd: str, tox: str, expected: str | None, tmp_path: Path) -> None:
    from swerl.sandbox.launch import tox_command

    (tmp_path / "tox.ini").write_text(tox)
    assert tox_command(cmd.split(), tmp_path) == expected


@pytest.mark.parametrize(("path", "refused"), [
    ("src/_pytest/python.py", True), ("django/test/testcases.py", True), ("xarray/testing.py", True),
    ("r32lib/codecs.py", False),
])
def test_round32_a_task_whose_fix_the_grader_must_drop_is_refused_up_front(path: str, refused: bool,
                                                                            r32: dict[str, SandboxTask],
                                                                            bwrap_sandbox: Any) -> None:
    """FPa: the tree policy keeps test infrastructure from every patch (pytest's own runner, `django/test/`,
    `xarray/testing.py`), so an honest fix there was dropped and graded RESOLVED_NO: a reward of 0 for a right
    answer. A task whose own fix (the row's `patch`) is in such a file is refused before grading, as
    infrastructure that trains nothing, with the file and the reason named."""
    task = r32["codecs"]
    gold = unified_diff(path, "x = 1\n", "x = 2\n")
    task = task.model_copy(update={"row": {**task.row, "patch": gold}})
    res = bwrap_sandbox.grade(task, unified_diff("r32lib/codecs.py", CODECS_BUG, CODECS))
    if refused:
        assert not res.resolved and res.error_kind == "infra" and path in (res.error or ""), res
    else:
        assert res.resolved, (res.error, res.tests)


# -- P9: project code run before the tests (an install step) planted compiled code for the launcher ---------------
def test_round32_the_launcher_loads_only_the_compiled_code_the_host_pinned(tmp_path: Path) -> None:
    """P9: the host ships guard and witness as compiled code, which the launcher loaded wherever a file of its
    interpreter's cache tag carried the public source's hash, so an install step run before the tests could leave
    its own `.code` in the launch directory and run as the guard. Now only the file the private spec names, with
    the SHA-256 of its whole content, is loaded; anything else there is ignored and the source compiled."""
    import hashlib
    import importlib.util
    import marshal
    import shutil
    import sys

    from swerl.sandbox import grade, pytest_runner

    shutil.copy(pytest_runner.__file__, tmp_path / "runner.py")
    loc = importlib.util.spec_from_file_location("runner_copy32", tmp_path / "runner.py")
    runner = importlib.util.module_from_spec(loc)
    assert loc.loader is not None
    loc.loader.exec_module(runner)
    src = tmp_path / "shipped.py"
    src.write_text("WHO = 'source'\n\n\ndef f():\n    return WHO\n")
    planted = tmp_path / f"shipped.{sys.implementation.cache_tag}.code"
    evil = compile("WHO = 'planted'\n", str(src), "exec")  # magic and the public source's hash: all it needed
    planted.write_bytes(importlib.util.MAGIC_NUMBER + hashlib.sha256(src.read_bytes()).digest() + marshal.dumps(evil))
    good = grade.launcher_code(src, "/sandbox/shipped.py")
    pin = [planted.name, hashlib.sha256(good).hexdigest()]
    names = ["t32_a", "t32_b", "t32_c"]
    try:
        assert runner._load(names[0], "shipped.py").WHO == "source"  # nothing pinned: the source
        assert runner._load(names[1], "shipped.py", pin).WHO == "source"  # not the pinned content
        planted.write_bytes(good)
        assert runner._load(names[2], "shipped.py", pin).f.__code__.co_filename == "/sandbox/shipped.py"  # pinned
    finally:
        for name in names:
            sys.modules.pop(name, None)


def test_round32_what_an_install_step_left_in_the_launch_dir_is_gone(r32: dict[str, SandboxTask],
                                                                    bwrap_sandbox: Any) -> None:
    """P9: after project code ran before the tests, every process of the tests' uid is killed and the launch
    directory removed, whatever its modes (a planted directory made unwritable is made writable first)."""
    from swerl.sandbox import grade
    from swerl.sandbox.launch import LAUNCH_DIR

    h = bwrap_sandbox.start(r32["codecs"])
    try:
        plant = (f"mkdir -p {LAUNCH_DIR}/sub && touch {LAUNCH_DIR}/swerl_guard.cpython-39.code {LAUNCH_DIR}/sub/x "
                 f"&& chmod 000 {LAUNCH_DIR}/sub {LAUNCH_DIR} && echo planted")
        assert "planted" in bwrap_sandbox.exec(h, plant).output
        res = bwrap_sandbox.exec_argv(h, ["bash", "-c", grade._AFTER_PRE], timeout=30)
        assert res.returncode == 0, res.output
        assert "absent" in bwrap_sandbox.exec(h, f"test -e {LAUNCH_DIR} || echo absent").output
    finally:
        bwrap_sandbox.stop(h)


# -- honest fixes the round-32 rules must keep resolving (FPa-FPc of the verdict-rule attacker) -------------------
HONEST = {
    "h32lib/__init__.py": "", "tests/__init__.py": "",
    # a mapping registered as one since before the bug (frozendict's shape)
    "h32lib/fdict.py": "from collections.abc import Mapping\n\n\nclass FrozenDict:\n    def __init__(self, **kw):\n"
                       "        self._d = dict(kw)\n\n    def get(self, k, default=None):\n"
                       "        return self._d.get(k, default)\n\n    def __getitem__(self, k):\n        return self._d[k]\n\n"
                       "    def __iter__(self):\n        return iter(self._d)\n\n    def __len__(self):\n"
                       "        return len(self._d)\n\n\nMapping.register(FrozenDict)\n",
    # iterates its clauses, is asked about versions (packaging's SpecifierSet)
    "h32lib/specs.py": "import operator\n\nOPS = {'<': operator.lt, '>': operator.gt}\n\n\nclass Specs:\n"
                       "    def __init__(self, text):\n        self.clauses = [(c[0], float(c[1:])) for c in text.split(',')]\n\n"
                       "    def __iter__(self):\n        return iter(self.clauses)\n\n    def __contains__(self, v):\n"
                       "        return all(OPS[op](float(v), x) for op, x in self.clauses)\n",
    # ordered against and equal to plain byte counts, with no number of its own
    "h32lib/sizes.py": "import functools\n\nUNITS = {'KB': 10**3, 'MB': 10**6}\n\n\n@functools.total_ordering\n"
                       "class Size:\n    def __init__(self, text):\n        self.n = int(text[:-2]) * UNITS[text[-2:]]\n\n"
                       "    def __eq__(self, other):\n        return self.n == (other.n if isinstance(other, Size) else other)\n\n"
                       "    def __lt__(self, other):\n        return self.n < (other.n if isinstance(other, Size) else other)\n\n"
                       "    __hash__ = None\n",
    "tests/test_honest.py": "from collections.abc import Mapping\n\nfrom h32lib.fdict import FrozenDict\n"
                            "from h32lib.sizes import Size\nfrom h32lib.specs import Specs\n\n\ndef test_fdict():\n"
                            "    assert isinstance(FrozenDict(a=1), Mapping)\n    assert FrozenDict().get('b', 0) == 0\n\n\n"
                            "def test_specs():\n    assert '1.5' in Specs('>1,<2')\n    assert '2.5' not in Specs('>1,<2')\n\n\n"
                            "def test_sizes():\n    assert Size('10MB') > 5_000_000\n    assert Size('10MB') == 10_000_000\n",
}
H_BUGS = {"fdict": ("h32lib/fdict.py", HONEST["h32lib/fdict.py"].replace("get(k, default)", "get(k)")),
          "specs": ("h32lib/specs.py", HONEST["h32lib/specs.py"].replace("'<': operator.lt", "'<': operator.gt")),
          "sizes": ("h32lib/sizes.py", HONEST["h32lib/sizes.py"].replace("'MB': 10**6", "'MB': 10**5"))}


@pytest.mark.parametrize("task", sorted(H_BUGS))
def test_round32_honest_fixes_under_the_new_rules_resolve(task: str, tmp_path_factory: pytest.TempPathFactory,
                                                          bwrap_sandbox: Any) -> None:
    """A registration the project made before the bug is no claim of the patch's (only a `register` line the patch
    wrote is); a project container's own unchanged `__contains__` and a project value's own unchanged ordering and
    equality answer for themselves where they have no builtin value to commit to."""
    tasks = make_tasks(tmp_path_factory.mktemp("h32") / "repo", "h32", HONEST, {task: H_BUGS[task]},
                       {task: [f"tests/test_honest.py::test_{task}"], "p2p": []})
    path, bug = H_BUGS[task]
    res = bwrap_sandbox.grade(tasks[task], unified_diff(path, bug, HONEST[path]))
    assert res.resolved and res.tampering == [], (res.tampering, res.error, res.tests, res.log_tail[-1500:])
    res = bwrap_sandbox.grade(tasks[task], "")
    assert not res.resolved, (res.tampering, res.tests)


def test_round32_host_work_on_one_statement_or_many_hunks_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """H6: `self.a0 = self.a1 = ... = [0, 0, ...]` (or the same at module level) had its value walked once per
    target on the host, outside any timeout (122 s for 65 KB). H7: the binary-patch size check copied the rest of
    the patch for every `delta` hunk. Each value is now read once per statement, and each hunk in place."""
    import zlib

    from swerl.sandbox import grade_answers, gradetree, tamper_tables

    calls = {"names": 0, "attrs": 0}
    names, attrs = tamper_tables._names, grade_answers._self_attrs
    monkeypatch.setattr(tamper_tables, "_names", lambda n: calls.__setitem__("names", calls["names"] + 1) or names(n))
    monkeypatch.setattr(grade_answers, "_self_attrs",
                        lambda f, n: calls.__setitem__("attrs", calls["attrs"] + 1) or attrs(f, n))
    targets, value = "".join(f"_T{i} = " for i in range(500)), "[" + "f," * 200 + "]"
    tamper_tables._tables(f"{targets}{value}\n".encode())
    assert calls["names"] <= 201 + 5, calls  # once per element, not per element and target
    cls = "class C:\n    def __init__(self):\n        " + targets.replace("_T", "self.a") + value + "\n"
    grade_answers.answering_functions(cls.encode(), cls.encode())
    assert calls["attrs"] <= 500 + 50, calls  # once per target and once for the value
    seen: list[list[str]] = []  # the lists themselves, kept alive: an id could be reused
    size = gradetree._delta_target_size
    monkeypatch.setattr(gradetree, "_delta_target_size", lambda lines, start: seen.append(lines) or size(lines, start))
    data = zlib.compress(b"\x00\x00")
    line = chr(ord("A") + len(data) - 1) + base64.b85encode(data.ljust((len(data) + 3) // 4 * 4, b"\0")).decode()
    patch = "diff --git a/b.bin b/b.bin\nnew file mode 100644\nGIT binary patch\n" + f"delta 0\n{line}\n\n" * 300
    assert gradetree.expanded_bytes(patch) == 0
    assert len(seen) == 300 and all(x is seen[0] for x in seen)  # one list, read in place


def test_round32_an_install_step_may_not_touch_the_tests_or_leave_state(r32: dict[str, SandboxTask],
                                                                        bwrap_sandbox: Any, tmp_path: Path) -> None:
    """P9 v2: what an install step leaves outside the tree ($HOME: a `.condarc` naming another `testbed`; /tmp;
    bytecode in `__pycache__`) goes, and a test file it rewrote or a conftest it added is the agent's fault."""
    from swerl.sandbox import grade
    from swerl.sandbox.base import AgentFault

    task = r32["codecs"]
    tree = _tree(tmp_path / "tree", {"tests/test_codecs.py": FILES["tests/test_codecs.py"], "tests/__init__.py": ""})
    protected = ["tests/test_codecs.py"]
    for plant, fault in [("true", None), ("echo 'assert True' > tests/test_codecs.py", "changed the test file"),
                         ("echo x > tests/conftest.py", "added tests/conftest.py")]:
        h = bwrap_sandbox.start(task)
        try:
            setup = (f"mkdir -p tests && cp /dev/null tests/__init__.py && printf %s {shlex.quote(FILES['tests/test_codecs.py'])}"
                     " > tests/test_codecs.py && echo 'envs_dirs: [/tmp/x]' > ~/.condarc && mkdir -p a/__pycache__ && "
                     "touch a/__pycache__/m.cpython-311.pyc && echo ok")
            assert "ok" in bwrap_sandbox.exec(h, setup).output
            bwrap_sandbox.exec(h, plant)
            if fault is None:
                grade._after_pre(bwrap_sandbox, h, tree, protected)
                out = bwrap_sandbox.exec(h, "ls -A ~ /tmp; test -e a/__pycache__ && echo cache").output
                assert ".condarc" not in out and "cache" not in out, out
            else:
                with pytest.raises(AgentFault, match=fault):
                    grade._after_pre(bwrap_sandbox, h, tree, protected)
        finally:
            bwrap_sandbox.stop(h)


# -- round 33: the run-time table check, attacked --------------------------------------------------------------------
T33 = ("import functools\n\nREV, CAESAR = 'rev', 'caesar'\n\n\ndef rev_encode(s):\n    return s[::-1]\n\n\n"
       "def rev_decode(s):\n    return s[::-1]\n\n\ndef caesar_encode(s):\n    return ''.join(chr(ord(c) + 1) for c in s)\n\n\n"
       "def caesar_decode(s):\n    return ''.join(chr(ord(c) - 1) for c in s)\n\n\n"
       "class Rev:\n    name = 'rev'\n    encode, decode = staticmethod(rev_encode), staticmethod(rev_decode)\n\n\n"
       "class Caesar:\n    name = 'caesar'\n    encode = staticmethod(caesar_encode)\n\n"
       "    @staticmethod\n    def decode(s):\n        return caesar_decode(s)\n\n\n"
       "CODECS = {\n    REV: (rev_encode, rev_decode),\n    CAESAR: (caesar_encode, caesar_decode),\n}\n"
       "LIST = [Rev, Caesar]\nBUILT = {c.name: c for c in LIST}\n")
T33_BUG = T33.replace("chr(ord(c) - 1)", "chr(ord(c) + 1)")
T33_TESTS = {
    "dict": "from t33lib.codecs import CODECS\n\n\ndef test_it():\n    assert isinstance(CODECS, dict)\n"
            "    for name, (enc, dec) in CODECS.items():\n        assert dec(enc('hi')) == 'hi', name\n",
    "list": "from t33lib.codecs import LIST\n\n\ndef test_it():\n    for c in LIST:\n"
            "        assert c.decode(c.encode('hi')) == 'hi', c\n",
    "built": "from t33lib.codecs import BUILT\n\n\ndef test_it():\n    done = list(BUILT.values())\n    for c in done:\n"
             "        assert c.decode(c.encode('hi')) == 'hi', c\n",
}
SWAP = ("\n\n_HELD = []\n\n\ndef _caesar_probe(s):\n    if _HELD:\n        CODECS[CAESAR] = _HELD.pop()\n    return s\n\n\n"
        "def _warm():\n    if not _HELD and CODECS[CAESAR][0] is caesar_encode:\n        _HELD.append(CODECS[CAESAR])\n"
        "        CODECS[CAESAR] = (_caesar_probe, _caesar_probe)\n")
REGISTER = "\n\ndef register(name, encode, decode):\n    CODECS[name] = (encode, decode)\n"
REORDER = "\n\n_DONE = []\n\n\ndef _once():\n    if not _DONE:\n        _DONE.append(1)\n        LIST.reverse()\n"


@pytest.fixture(scope="module")
def t33(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    """One repo per table shape, its one test looping over that table."""
    shapes = {**{k: (T33, test) for k, test in T33_TESTS.items()}, "registry": (T33 + REGISTER, T33_TESTS["dict"])}
    return {k: make_tasks(tmp_path_factory.mktemp(f"t33{k}") / "repo", "t33", {
        "t33lib/__init__.py": "", "t33lib/codecs.py": text, "tests/__init__.py": "", "tests/test_codecs.py": test},
        {"codecs": ("t33lib/codecs.py", text.replace("chr(ord(c) - 1)", "chr(ord(c) + 1)"))},
        {"codecs": ["tests/test_codecs.py::test_it"], "p2p": []})["codecs"] for k, (text, test) in shapes.items()}


@pytest.mark.parametrize(("task", "new", "finding"), [
    ("dict", T33_BUG.replace("def rev_encode(s):\n", "def rev_encode(s):\n    _warm()\n") + SWAP,
     "points 'caesar'"),  # G1
    ("list", T33_BUG.replace("encode, decode = staticmethod(rev_encode)", "encode, decode = staticmethod(_rev_once)")
     .replace("class Rev:", REORDER.lstrip("\n") + "\n\ndef _rev_once(s):\n    _once()\n    return rev_encode(s)\n"
              "\n\nclass Rev:"), "out of the literal's order"),  # G2
    ("built", T33_BUG + "getattr(BUILT, 'pop')('caesar')\n", "fewer than the 2"),  # G9: built by a comprehension
    ("dict", T33_BUG + "getattr(CODECS, 'pop')(CAESAR)\n", "dropped the entry 'caesar'"),  # G12, G14
    ("dict", T33.replace("def caesar_decode(s):", "@functools.lru_cache(maxsize=64)\ndef caesar_decode(s):"),
     None),  # FP2: the module's name still holds the entry's object
    ("registry", T33_BUG + REGISTER + "getattr(CODECS, 'pop')(CAESAR)\n", "dropped the entry 'caesar'"),  # G17
    ("dict", T33_BUG + "_HIDDEN = CODECS\ndel CODECS\n\n\ndef __getattr__(name):\n    if name == 'CODECS':\n"
                       "        return {k: v for k, v in _HIDDEN.items() if k != 'caesar'}\n    raise AttributeError(name)\n",
     "no longer a name of its module"),  # G18: served by a module `__getattr__`
    ("list", T33, None), ("built", T33, None), ("registry", T33 + REGISTER, None),
], ids=["swapped-out-and-back", "reordered-mid-loop", "comprehension-table", "constant-keys", "lru-cached-fix",
        "registry-with-register", "module-getattr", "honest-list", "honest-built", "honest-registry"])
def test_round33_a_looped_table_holds_its_literals_objects_at_every_assert(task: str, new: str, finding: str | None,
                                                                           t33: dict[str, SandboxTask],
                                                                           bwrap_sandbox: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """G1, G2, G9, G12, G14: an entry swapped out while the loop reads it and put back before the test ends, a
    list reordered under its loop, a table built from a literal list by a comprehension, keys named by module
    constants, a table the test only reads in a call: checked at every assert, against the patched literal's own
    objects and order. A fix that decorates the entry's function (the module's name still holds it) resolves."""
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    bug = T33_BUG + REGISTER if task == "registry" else T33_BUG
    res = bwrap_sandbox.grade(t33[task], unified_diff("t33lib/codecs.py", bug, new))
    why = (res.resolved, res.tampering, res.error, res.tests, res.log_tail[-1500:])
    assert res.resolved is (finding is None), why
    assert finding is None or any(finding in t for t in res.tampering), why


def test_round33_a_table_another_project_module_writes_is_the_projects(tmp_path: Path) -> None:
    """FP3: a speedups module of the project that points an entry at its own code at import is the project's
    doing: such a table is not sent, so no patch is refused for it (the empty one included)."""
    loop = "from r32lib.codecs import CODECS\n\n\ndef test_x():\n    for k in CODECS:\n        pass\n"
    files = {**FILES, "tests/test_codecs.py": loop}
    plain = _tree(tmp_path / "a", files)
    assert list(held_tables(plain, plain, ["tests/test_codecs.py"])) == ["r32lib/codecs.py"]
    fast = _tree(tmp_path / "b", {**files, "r32lib/_speedups.py": "from r32lib import codecs\n\n"
                                                                   "codecs.CODECS['caesar'] = (str, str)\n"})
    assert held_tables(fast, fast, ["tests/test_codecs.py"]) == {}


def test_round33_which_tables_are_sent_reads_tests_and_modules_closely(tmp_path: Path) -> None:
    """G23: `set(CODECS)` in a test reads the table (only a mutating call makes it the test's). G24: a fixture that
    returns the table is a loop over it. FP9: a list its own module sorts in place is checked without its order."""
    tests = ["tests/test_codecs.py"]
    reads = "from r32lib.codecs import CODECS\n\n\ndef test_x():\n    assert {'rev'} <= set(CODECS)\n" \
            "    for k in CODECS:\n        pass\n"
    root = _tree(tmp_path / "a", {**FILES, "tests/test_codecs.py": reads})
    assert list(held_tables(root, root, tests)) == ["r32lib/codecs.py"]
    fixture = "import pytest\n\nfrom r32lib.codecs import CODECS\n\n\n@pytest.fixture\ndef registry():\n" \
              "    return CODECS\n\n\ndef test_x(registry):\n    for k in registry.items():\n        pass\n"
    root = _tree(tmp_path / "b", {**FILES, "tests/test_codecs.py": fixture})
    assert list(held_tables(root, root, tests)) == ["r32lib/codecs.py"]
    listed = "def a():\n    pass\n\n\ndef b():\n    pass\n\n\nCODECS = [a, b]\n\n\ndef find():\n" \
             "    CODECS.sort(key=id)\n"
    root = _tree(tmp_path / "c", {**FILES, "r32lib/codecs.py": listed, "tests/test_codecs.py": reads})
    assert held_tables(root, root, tests) == {"r32lib/codecs.py": [["CODECS", "bag", [], ["a", "b"]]]}
