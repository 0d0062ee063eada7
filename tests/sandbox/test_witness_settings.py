"""Round 68: the standard library's process-wide settings are the tests' to set. A test that computes its expected
value with the standard library (`calendar.monthcalendar`, `Decimal` arithmetic, `reprlib.repr`) gets whatever a
global setting makes it give, so a patch that changes one makes the oracle agree with the bug (round 67's T9, T12,
T17). Each case runs the real launcher on a tree of its own."""

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
