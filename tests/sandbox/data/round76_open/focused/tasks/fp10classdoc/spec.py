FILES = {
"a23lib/units.py": '''"""Length units; each unit class's documentation is generated from one template."""

_TEMPLATE = """The {unit} unit.

>>> {cls}().to_mm(10)
{ten}
"""


class Inch:
    __doc__ = _TEMPLATE.format(unit="inch", cls="Inch", ten="254.0")

    def to_mm(self, n):
        return round(n * 254 / 10, 1)


class Foot:
    __doc__ = _TEMPLATE.format(unit="foot", cls="Foot", ten="3048.0")

    def to_mm(self, n):
        return round(n * 3048 / 10, 1)
''',
"tests/test_units.py": '''import doctest

import a23lib.units as units


def test_doctests():
    assert doctest.testmod(units).failed == 0


def test_inch():
    assert units.Inch().to_mm(1) == 25.4
''',
}
BUG = [("a23lib/units.py", "round(n * 3048 / 10, 1)", "round(n * 3048 / 100, 1)")]
F2P = ["tests/test_units.py::test_doctests"]
P2P = ["tests/test_units.py::test_inch"]
