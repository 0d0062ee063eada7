open("pytest.ini", "w").write('''[pytest]
addopts = --doctest-modules a23lib/unitsrt2.py
''')
open("a23lib/unitsrt2.py", "w").write('''"""Unit conversion."""


def to_meters(value, unit):
    """The length in meters.

    >>> to_meters(2, "km")
    2000
    >>> to_meters(3, "m")
    3
    """
    factor = {"km": 1000, "m": 1, "cm": 0.01}[unit]
    return value * factor
''')
open("tests/test_unitsrt2.py", "w").write('''from a23lib.unitsrt2 import to_meters


def test_km():
    assert to_meters(1, "km") == 1000


def test_cm():
    assert to_meters(200, "cm") == 2
''')
