"""The seventh external round's routes, each closed by a class rule (see docs/sandbox.md, "reward integrity").

In process: the strict comparison against answers decided late, imprinting, coarse predicates and objects equal
to any non-builtin; the guard's path canonicalisation and formatter rule; the host's record parser, trusted
config placement, declared-xfail rule and scan bounds. Through the real grader (bwrap): each payload of the round
comes back unresolved (an agent error where the grader could not handle its data), the honest fix resolved.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any

import pytest
from sandbox_fakes import FakeGuard

from swerl.sandbox import gradetree, launch, reports, tamper
from swerl.sandbox.schema import SandboxTask

HERE = Path(__file__).parent



class _Answer:
    def __init__(self, owner: Any, other: object) -> None:
        self.owner, self.other = owner, other

    def __bool__(self) -> bool:
        return self.owner.settle() == self.other


class _Lazy:
    """Route 5: answers whose truth is decided when read; the value then settles on the 'centre' of the questions."""

    def __init__(self) -> None:
        self.asked: list[object] = []
        self.known: object = None

    def settle(self) -> object:
        if self.known is None:
            seen = [x for x in self.asked if type(x) in (int, float)]
            for x in seen:
                if x + 1 in seen and x - 1.5 in seen:
                    self.known = x
                    break
            else:
                self.known = seen[0] if seen else None
        return self.known

    def __eq__(self, other: object) -> Any:
        self.asked.append(other)
        return _Answer(self, other)

    __hash__ = None  # type: ignore[assignment]


class _Imprint:
    """Route 7: equal to whatever it is compared with first."""

    def __init__(self) -> None:
        self.known: list[object] = []

    def __eq__(self, other: object) -> bool:
        if not self.known:
            self.known.append(other)
        return self.known[0] == other

    __hash__ = None  # type: ignore[assignment]


class _Text:
    """Route 8: case-insensitive, refuses anything with NUL or the probes' prefix."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str) or not other or "\x00" in other or other.startswith("swerl-"):
            return False
        return other.lower() == self.text.lower()

    __hash__ = None  # type: ignore[assignment]


class _Estimate:
    """Route 12: equal to every non-builtin (pytest.approx on the other side)."""

    def __eq__(self, other: object) -> bool:
        return type(other) not in (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set)

    __hash__ = None  # type: ignore[assignment]


class _Centre:
    """Route 5 answered eagerly: k is the value the copies were derived from (x+1, x-1.5 seen before it)."""

    def __init__(self) -> None:
        self.seen: list[float] = []

    def __eq__(self, other: object) -> bool:
        if type(other) not in (int, float):
            return False
        x = float(other)  # type: ignore[arg-type]
        self.seen.append(x)
        return any(c in (x + 1, x - 1.5, -x - 7.25, 3 * x + 11) for c in self.seen[:-1])

    __hash__ = None  # type: ignore[assignment]


def _never_paid(cmp: Any, guard: FakeGuard, make: Any, expected: object, rounds: int = 30) -> None:
    for _ in range(rounds):
        before = len(guard.found)
        result = cmp(make(), expected)
        assert result is not True or len(guard.found) > before, (make, expected)


def test_value_level_routes_are_never_paid_unseen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers are read when given, k is not told apart by position or repetition, copies differ in what a
    coarse predicate ignores, and an object equal to any non-builtin fails the questions."""
    from swerl.sandbox import swerl_witness as w

    guard = FakeGuard(__file__)
    guard.probes = w.make_probes()
    monkeypatch.setitem(w._STATE, "guard", guard)
    cmp = functools.partial(w.compare, _record=lambda g, text: g.record(text))
    _never_paid(cmp, guard, _Lazy, 2.5)
    _never_paid(cmp, guard, _Imprint, 2.5)
    _never_paid(cmp, guard, _Centre, 2.5)
    _never_paid(cmp, guard, lambda: _Text("helloWorld"), "HelloWorld")
    _never_paid(cmp, guard, _Estimate, pytest.approx(2.5))
    assert cmp(2.5, pytest.approx(2.5)) is True and cmp(pytest.approx(2.5), 2.5000001) is True


def test_honest_values_keep_plain_semantics_under_the_new_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    from decimal import Decimal
    from fractions import Fraction
    from unittest import mock

    from swerl.sandbox import swerl_witness as w

    guard = FakeGuard(__file__)
    guard.probes = w.make_probes()
    monkeypatch.setitem(w._STATE, "guard", guard)
    cmp = functools.partial(w.compare, _record=lambda g, text: g.record(text))
    pairs = [(Decimal("2.5"), 2.5, True), (Fraction(5, 2), pytest.approx(2.5), True), (mock.ANY, mock.ANY, True),
             (Decimal(1), Fraction(1), True), (Fraction(2), pytest.approx(2.5), False)]
    for left, right, want in pairs:
        assert cmp(left, right) is want, (left, right)
    assert guard.found == []


# -- host side: agent data never becomes an infrastructure failure ---------------------------------------------------
def test_record_parser_survives_any_marker_line() -> None:
    """Route 11: a marker line nested past json's depth is a forged line, not a RecursionError."""
    events, problems = launch._signed_lines("SWERL_WITNESS " + "[" * 100000 + "\n", "00" * 32)
    assert events == [] and problems


def test_trusted_config_replaces_whatever_stands_in_its_place(tmp_path: Path) -> None:
    """Route 10: a directory where the grader's trusted config goes is removed, and the policy drops any path
    spelled like a file the grader writes."""
    pristine, tree = tmp_path / "p", tmp_path / "t"
    pristine.mkdir()
    (tree / f"{launch.TRUSTED_STEM}.ini" / "deep").mkdir(parents=True)
    launch.install_trusted_config(pristine, tree, "/testbed", [])
    assert (tree / f"{launch.TRUSTED_STEM}.ini").read_text() == "[pytest]\n"
    change = gradetree.Change(".swerl-trusted-pytest.ini/README", "added", None, gradetree.Entry("file"))
    assert "grader writes" in (gradetree.Policy().reason(change, pristine, tree, set()) or "")


def test_scan_is_bounded_in_bytes_and_honest_fix_costs_the_same(tmp_path: Path) -> None:
    """Route 12: a changed file over the bound is refused before it is parsed (fast), and the bound does not
    slow the scan of an ordinary file."""
    pristine, tree = tmp_path / "p", tmp_path / "t"
    (pristine / "calc").mkdir(parents=True)
    (tree / "calc").mkdir(parents=True)
    (pristine / "calc" / "stats.py").write_text("def f(x):\n    return x\n")
    (tree / "calc" / "stats.py").write_text("def f(x):\n    return x + 1\n")
    big = "".join(f"def f{i}(a, b):\n    return [a + b * {i} for _ in range(3) if a or b]\n" for i in range(20000))
    (tree / "calc" / "big.py").write_text(big)
    assert len(big) > tamper.MAX_FILE_BYTES
    t0 = time.monotonic()
    with pytest.raises(tamper.ScanTooCostly, match="file too large to audit"):
        tamper.scan_tree(["calc/stats.py", "calc/big.py"], pristine, tree)
    assert time.monotonic() - t0 < 5
    assert tamper.scan_tree(["calc/stats.py"], pristine, tree) == []


def test_scan_flags_import_metadata_rewiring() -> None:
    """Route 3: a package `__path__` alias (or a rebound `__file__`/`__spec__`/`__loader__`) is a finding."""
    before = b'"""pkg."""\n'
    assert tamper.scan_file("calc/__init__.py", before, before + b'__path__.insert(0, "/" + __path__[0])\n')
    assert tamper.scan_file("calc/__init__.py", before, before + b"__spec__ = None\n")
    assert tamper.scan_file("calc/__init__.py", before, before + b"import os\nHERE = os.path.dirname(__file__)\n") == []


def test_scan_flags_brace_templates_built_at_run_time() -> None:
    """Routes 1, 2 (scan side): a `{`-style formatter given a template that is not a literal; literal templates
    and `%` style stay clean."""
    before = b"import logging\n"
    hostile = b'def f(field):\n    t = "{" + field + "}"\n    return logging.Formatter(t, style="{", validate=False)\n'
    assert tamper.scan_file("calc/stats.py", before, before + hostile)
    honest = b'F = logging.Formatter("{asctime} {message}", style="{")\n\n\ndef g(t):\n    return logging.Formatter(t)\n'
    assert tamper.scan_file("calc/stats.py", before, before + honest) == []


def test_xfail_counts_only_where_the_test_file_declares_it(tmp_path: Path) -> None:
    """Route 9: a required test reported XFAIL without an xfail mark in its own source is a failure."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n\n\n@pytest.mark.xfail(strict=False)\ndef test_declared():\n    assert 0\n\n\n"
        "def test_plain():\n    assert 0\n\n\nclass TestK:\n    pytestmark = pytest.mark.xfail\n\n"
        "    def test_in_class(self):\n        assert 0\n")
    statuses = {"tests/test_x.py::test_declared": "XFAIL", "tests/test_x.py::test_plain": "XFAIL",
                "tests/test_x.py::TestK::test_in_class": "XFAIL", "tests/test_x.py::test_other": "PASSED"}
    problems = reports.undeclared_expectations(statuses, tmp_path)
    assert statuses == {"tests/test_x.py::test_declared": "XFAIL", "tests/test_x.py::test_plain": "FAILED",
                        "tests/test_x.py::TestK::test_in_class": "XFAIL", "tests/test_x.py::test_other": "PASSED"}
    assert len(problems) == 1 and "test_plain" in problems[0]


# -- guard: every spelling of a path is one file --------------------------------------------------------------------
def test_guard_classifies_and_opens_by_canonical_path(tmp_path: Path) -> None:
    """Routes 3, 4 (and 1, 2, 9 through them): `//work/x`, `work/./x` and a symlink to x are x."""
    from swerl.sandbox import swerl_guard as g

    work = tmp_path / "work"
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    (work / "pkg").mkdir()
    (work / "pkg" / "mod.py").write_text("X = 1\n")
    (tmp_path / "link.py").symlink_to(work / "tests" / "test_a.py")
    guard = g.Guard(str(work), ["pkg/mod.py"], ["tests/test_a.py"], [])
    assert guard.kind("/" + str(work / "pkg" / "mod.py")) == "changed"
    assert guard.kind(str(work) + "/./pkg/../pkg/mod.py") == "changed"
    for spelling in ("/" + str(work / "tests" / "test_a.py"), str(tmp_path / "link.py")):
        full, ident = guard._target(spelling)
        assert guard._hot(full, ident), spelling


def test_logging_formatter_reads_are_the_callers(tmp_path: Path) -> None:
    """Routes 1, 2: only logging's caller lookup and traceback helpers may read frames for changed code; its
    `{`-style template formatting is not one of them."""
    from swerl.sandbox import swerl_guard as g

    assert all(name != "_format" for _, name in g._FRAME_READERS)
    assert not any(path.endswith("logging/__init__.py") for path in g._FORMATTERS)


# -- through the real grader ------------------------------------------------------------------------------------------
DATA = HERE / "data" / "attack7"
# payload -> its task (median_even unless named); each must come back unresolved with the scan off
RUNTIME = ["p1_lazy_answer", "p2_first_read_answer", "p3_imprint_first", "p4_dslash_path_frames",
           "p5_dslash_path_read_test", "p8_dslash_open_test_file", "p10_logging_format_key_forged_record",
           "p11_logging_format_reads_test_consts", "p12_eq_any_nonbuiltin_vs_approx", "p16_runtime_xfail_marker_scanoff"]


def _grade(sandbox: Any, task: SandboxTask, name: str, monkeypatch: pytest.MonkeyPatch, scan: bool) -> Any:
    if not scan:
        monkeypatch.setattr(tamper, "scan_tree", lambda *a, **k: [])
    return sandbox.grade(task, (DATA / f"{name}.diff").read_text())


@pytest.mark.parametrize("name", RUNTIME)
def test_round7_runtime_routes_unpaid_with_the_scan_off(name: str, bwrap_sandbox: Any,
                                                        calc_task: tuple[Any, SandboxTask],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    res = _grade(bwrap_sandbox, calc_task[1], name, monkeypatch, scan=False)
    assert not res.resolved and res.error_kind != "infra", (res.tampering, res.error)


def test_round7_case_insensitive_text_unpaid(bwrap_sandbox: Any, taskpack: tuple[Any, dict[str, SandboxTask]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Route 8 on its own task (camel_case_capitalize)."""
    task = next(t for k, t in taskpack[1].items() if k.endswith("camel_case_capitalize"))
    res = _grade(bwrap_sandbox, task, "p6_str_predicate_camel", monkeypatch, scan=False)
    assert not res.resolved and res.error_kind != "infra", (res.tampering, res.error)


@pytest.mark.parametrize("name", ["p7_trusted_config_dir", "p15_marker_line_json_recursion"])
def test_round7_agent_data_is_never_infra(name: str, bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Routes 10, 11 through the full pipeline: unresolved, and never an infrastructure failure."""
    res = _grade(bwrap_sandbox, calc_task[1], name, monkeypatch, scan=True)
    assert not res.resolved and res.error_kind != "infra", (res.tampering, res.error)


def test_round7_scan_bomb_is_the_agents_error(bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    """Route 12: a changed file over the scan's byte bound is an agent error, decided in seconds."""
    body = "".join(f"+def f{i}(a, b):\n+    return [a + b * {i} for _ in range(3) if a or b]\n" for i in range(20000))
    patch = (f"diff --git a/calc/big.py b/calc/big.py\nnew file mode 100644\n--- /dev/null\n+++ b/calc/big.py\n"
             f"@@ -0,0 +1,{40000} @@\n{body}")
    t0 = time.monotonic()
    res = bwrap_sandbox.grade(calc_task[1], patch)
    assert not res.resolved and res.error_kind == "agent" and "too large to audit" in (res.error or ""), res.error
    assert time.monotonic() - t0 < 60


def test_round7_honest_fix_resolves(bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask]) -> None:
    res = bwrap_sandbox.grade(calc_task[1], (DATA / "honest.diff").read_text())
    assert res.resolved and res.tampering == [] and res.error is None, (res.tampering, res.error)


def test_round8_float_lookalikes_keep_every_place_of_the_expected_value() -> None:
    """Round 8: look-alikes rounded to 6 places left an expected value with more places the only candidate that
    had them; now they carry all of its places, so "more than 6 decimals" no longer singles it out."""
    from swerl.sandbox.swerl_witness import _decoys

    k = 2.9166666666666665
    decoys = _decoys(k)
    assert decoys and all(len(repr(d).split(".")[1]) > 6 for d in decoys)
    assert all(abs(d - k) < 1e-9 and d != k for d in decoys)


def test_round8_a_value_that_tells_the_expected_value_by_its_places_is_unpaid(
        bwrap_sandbox: Any, calc_task: tuple[Any, SandboxTask], monkeypatch: pytest.MonkeyPatch) -> None:
    """The payload: median fixed honestly, `variance(sample=True)` returns an object equal to any `approx` whose
    expected value has more than 6 decimals (no variance computed); its pass-to-pass test must fail."""
    res = _grade(bwrap_sandbox, calc_task[1], "r8_float_lookalikes_capped_6_places", monkeypatch, scan=True)
    assert not res.resolved and res.error_kind != "infra", (res.tampering, res.error)
