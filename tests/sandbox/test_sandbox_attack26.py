"""Round 26's classes, each closed by a rule (docs/sandbox.md, "Round 26").

Through the real grader (bwrap) on a synthetic SWE-smith repo, with the static scan off so the runtime layer alone
decides: a value that equals anything is judged where a library compares it for the test (inside an
`argparse.Namespace`, a dataclass-like library object, a `mock` call assertion); the honest fix resolves and the
unfixed bug stays unresolved.
"""

from __future__ import annotations

from typing import Any

import pytest
from synthetic_repo import make_tasks, unified_diff

from swerl.sandbox import tamper
from swerl.sandbox.schema import SandboxTask

NOTIFY = "def process(items, on_done):\n    count = 0\n    for _ in items:\n        count += 1\n    on_done(count)\n"
NOTIFY_BUG = NOTIFY.replace("    count = 0\n", "    count = 0\n    items = list(items)[1:]\n")
ARGS = ("import argparse\n\n\ndef parse(argv):\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--n', type=int, default=1)\n    return p.parse_args(argv)\n")
ARGS_BUG = ARGS.replace("type=int, ", "")
LIAR = ("\n\nclass _Any:\n    def __eq__(self, other):\n        return True\n\n    def __ne__(self, other):\n"
        "        return False\n\n    __hash__ = None\n")
FILES = {"r26lib/__init__.py": "", "r26lib/notify.py": NOTIFY, "r26lib/args.py": ARGS, "tests/__init__.py": "",
         "tests/test_notify.py": "from unittest import mock\n\nfrom r26lib.notify import process\n\n\n"
                                 "def test_called_once_with():\n    cb = mock.Mock()\n    process('abc', cb)\n"
                                 "    cb.assert_called_once_with(3)\n\n\n"
                                 "def test_has_calls():\n    cb = mock.Mock()\n    process('ab', cb)\n"
                                 "    cb.assert_has_calls([mock.call(2)])\n\n\n"
                                 "def test_call_args():\n    cb = mock.Mock()\n    process('abcd', cb)\n"
                                 "    assert cb.call_args == mock.call(4)\n",
         "tests/test_args.py": "import argparse\n\nfrom r26lib.args import parse\n\n\n"
                               "def test_namespace():\n    assert parse(['--n', '5']) == argparse.Namespace(n=5)\n"}
F2P = {"notify": [f"tests/test_notify.py::{t}" for t in ("test_called_once_with", "test_has_calls", "test_call_args")],
       "args": ["tests/test_args.py::test_namespace"]}
# the bug stays; what the test compares holds a value that equals anything
NOTIFY_LIAR = NOTIFY_BUG.replace("on_done(count)", "on_done(_Any())") + LIAR
ARGS_LIAR = ARGS_BUG.replace("return p.parse_args(argv)", "ns = p.parse_args(argv)\n    ns.n = _Any()\n"
                                                          "    return ns") + LIAR


@pytest.fixture(scope="module")
def r26(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("r26") / "repo", "r26", FILES,
                      {"notify": ("r26lib/notify.py", NOTIFY_BUG), "args": ("r26lib/args.py", ARGS_BUG)}, F2P)


@pytest.mark.parametrize(("task", "path", "bug", "new", "resolved"), [
    ("notify", "r26lib/notify.py", NOTIFY_BUG, NOTIFY_LIAR, False),
    ("notify", "r26lib/notify.py", NOTIFY_BUG, NOTIFY, True),
    ("notify", "r26lib/notify.py", NOTIFY_BUG, NOTIFY_BUG, False),
    ("args", "r26lib/args.py", ARGS_BUG, ARGS_LIAR, False),
    ("args", "r26lib/args.py", ARGS_BUG, ARGS, True),
], ids=["mock-liar", "mock-honest", "mock-unfixed", "namespace-liar", "namespace-honest"])
def test_round26_values_a_library_compares_are_judged(task: str, path: str, bug: str, new: str, resolved: bool,
                                                      r26: dict[str, SandboxTask], bwrap_sandbox: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])  # the runtime layer alone
    res = bwrap_sandbox.grade(r26[task], unified_diff(path, bug, new) if new != bug else "")
    why = (res.resolved, res.tampering, res.error, res.tests, res.log_tail[-1500:])
    assert res.resolved is resolved, why
    if new is NOTIFY_LIAR:  # each spelling is judged: mock's own assertion methods and `call_args == call(n)`
        assert any("mock's assert_called_with compared a _Any" in t for t in res.tampering), why
        assert any("mock's assert_has_calls compared a _Any" in t for t in res.tampering), why
        assert any(t.startswith("assertion compared a _Any") for t in res.tampering), why
    elif new is ARGS_LIAR:
        assert any(t.startswith("assertion compared a _Any") for t in res.tampering), why
    elif resolved:
        assert res.tampering == [], why
