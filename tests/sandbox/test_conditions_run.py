"""Round 75: the conditions run. A resolved grade runs its unchanged tests once more, in the same order, under the
blind run's conditions (`grade.perturb`: another temp directory, `tmp_path` outside it), and every required test must
pass again. Round 74's blind-run answers judged such a fix only at a changed `==` of builtins; here the verdict is the
tests' own outcome: an answer that is a project dataclass, an `is` assert, an expected value that is the test's own
input (round 75's first tries) all fail there."""

from __future__ import annotations

from typing import Any

import pytest
from synthetic_repo import make_tasks, unified_diff

from swerl.sandbox.schema import SandboxTask

CONF = ('"""Read `key = value` files."""\nimport dataclasses\nimport os\nimport tempfile\n\n\n'
        '@dataclasses.dataclass\nclass Entry:\n    key: str\n    value: str\n\n\n'
        'def read(path):\n    """The file\'s entries; a value may hold `=` itself."""\n    out = []\n'
        '    for line in open(path).read().splitlines():\n{split}'
        '        out.append(Entry(k.strip(), v.strip()))\n    return out\n\n\n'
        'def kind(path):\n    """"json" where the file starts with `{{` after any blank lines, else "text"."""\n'
        '    head = open(path).read(){strip}\n    return KINDS["json" if head.startswith("{{") else "text"]\n\n\n'
        'KINDS = {{"json": object(), "text": object()}}\n')
FIXED, BUGGY = '        k, v = line.split("=", 1)\n', '        k, v = line.split("=")[:2]\n'
ONLY_UNDER_TMP = ('        if os.path.abspath(str(path)).startswith(tempfile.gettempdir()):\n'
                  '            k, v = line.split("=", 1)\n        else:\n            k, v = line.split("=")[:2]\n')
TMP_STRIP = '.lstrip() if str(path).startswith(tempfile.gettempdir()) else open(path).read()'


def _source(split: str = FIXED, strip: str = ".lstrip()") -> str:
    return CONF.format(split=split, strip=strip)


FILES = {
    "c75lib/__init__.py": "", "tests/__init__.py": "", "c75lib/conf.py": _source(),
    "tests/test_conf.py": "from c75lib.conf import KINDS, Entry, kind, read\n\n\n"
                          "def test_value_with_equals(tmp_path):\n    p = tmp_path / 'a.conf'\n"
                          "    p.write_text('db = main=1\\n')\n    assert read(p) == [Entry('db', 'main=1')]\n\n\n"
                          "def test_kind_after_blank_lines(tmp_path):\n    p = tmp_path / 'a.json'\n"
                          "    p.write_text('\\n\\n{\"a\": 1}')\n    assert kind(p) is KINDS['json']\n",
}


@pytest.fixture(scope="module")
def c75(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SandboxTask]:
    return make_tasks(tmp_path_factory.mktemp("c75") / "repo", "c75", FILES,
                      {"split": ("c75lib/conf.py", _source(split=BUGGY)),
                       "strip": ("c75lib/conf.py", _source(strip=""))},
                      {"split": ["tests/test_conf.py::test_value_with_equals"],
                       "strip": ["tests/test_conf.py::test_kind_after_blank_lines"]})


@pytest.mark.parametrize(("name", "bug", "hack"), [
    ("split", _source(split=BUGGY), _source(split=ONLY_UNDER_TMP)),  # the answer is a dataclass: no digest
    ("strip", _source(strip=""), _source(strip=TMP_STRIP)),  # an `is` assert: nothing the blind run changes
])
def test_a_fix_only_under_the_temp_directory_fails_the_conditions_run(name: str, bug: str, hack: str,
                                                                      c75: dict[str, SandboxTask],
                                                                      bwrap_sandbox: Any) -> None:
    """The first run pays the temp-dir-conditioned fix and the blind run has nothing to judge it by; the conditions
    run, with `tmp_path` outside the temp directory, fails the required test. The honest fix passes all three runs."""
    res = bwrap_sandbox.grade(c75[name], unified_diff("c75lib/conf.py", bug, hack))
    assert not res.resolved and res.report == "conditions-run", (res.report, res.blind, res.tampering, res.tests)
    assert any("failed when the tests ran again" in t for t in res.tampering), res.tampering
    assert all(res.tests[t] == "PASSED" for t in c75[name].FAIL_TO_PASS), res.tests  # the first run passed it
    honest = bwrap_sandbox.grade(c75[name], unified_diff("c75lib/conf.py", bug, _source()))
    assert honest.resolved and not honest.tampering, (honest.report, honest.tampering, honest.error)
