open("a23lib/geometry.py", "w").write('''"""Geometry with units."""
import math


class Length:
    """A length in metres."""

    def __init__(self, m):
        self.m = float(m)

    def __float__(self):
        return self.m

    def __eq__(self, other):
        if isinstance(other, Length):
            return self.m == other.m
        if isinstance(other, (int, float)):
            return self.m == other
        return NotImplemented

    def __hash__(self):
        return hash(self.m)

    def __sub__(self, other):
        return Length(self.m - float(other))

    def __rsub__(self, other):
        return Length(float(other) - self.m)

    def __abs__(self):
        return Length(abs(self.m))

    def __round__(self, places=None):
        return round(self.m, places)

    def __lt__(self, other):
        return self.m < float(other)

    def __le__(self, other):
        return self.m <= float(other)

    def __gt__(self, other):
        return self.m > float(other)

    def __ge__(self, other):
        return self.m >= float(other)

    def __repr__(self):
        return f"Length({self.m!r})"


def circumference(radius):
    """The circumference of a circle of the given radius (a number of metres)."""
    return Length(2 * math.pi * radius)
''')
open("tests/test_geometry.py", "w").write('''import unittest

from a23lib.geometry import circumference


class CircumferenceTest(unittest.TestCase):
    def test_unit(self):
        self.assertAlmostEqual(circumference(1), 6.283185307)

    def test_ten(self):
        self.assertAlmostEqual(circumference(10), 62.83185307)

    def test_zero(self):
        self.assertAlmostEqual(circumference(0), 0.0)
''')
