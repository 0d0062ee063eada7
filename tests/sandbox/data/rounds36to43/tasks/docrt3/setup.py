open("pytest.ini", "w").write('''[pytest]
addopts = --doctest-modules a23lib/unitsrt3.py
''')
open("a23lib/unitsrt3.py", "w").write('''"""Unit conversion."""

_FACTORS = {"km": 1000, "m": 1, "cm": 0.01}


def to_meters(values, unit):
    """Each length in meters.

    >>> to_meters([2, 5], "km")
    [2000, 5000]
    >>> to_meters([3], "m")
    [3]
    """
    return [v * _FACTORS[unit] for v in values]
''')
open("tests/test_unitsrt3.py", "w").write('''from a23lib.unitsrt3 import to_meters


def test_cm():
    assert to_meters([200], "cm") == [2]
''')
