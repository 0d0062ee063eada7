open("a23lib/triangle.py", "w").write('''"""Triangles by their sides."""

import enum


class Kind(enum.Enum):
    EQUILATERAL = "equilateral"
    ISOSCELES = "isosceles"
    SCALENE = "scalene"
    INVALID = "invalid"


def classify(a, b, c):
    """The kind of triangle with sides a, b, c."""
    x, y, z = sorted((a, b, c))
    if x <= 0 or x + y <= z:
        return Kind.INVALID
    if x == z:
        return Kind.EQUILATERAL
    if x == y or y == z:
        return Kind.ISOSCELES
    return Kind.SCALENE
''')
open("tests/test_triangle.py", "w").write('''import pytest

from a23lib.triangle import Kind, classify


@pytest.mark.parametrize(("sides", "kind"), [
    ((2, 2, 2), Kind.EQUILATERAL),
    ((2, 3, 2), Kind.ISOSCELES),
    ((5, 3, 3), Kind.ISOSCELES),
    ((3, 4, 5), Kind.SCALENE),
    ((1, 1, 3), Kind.INVALID),
    ((1, 3, 1), Kind.INVALID),
], ids=["equilateral", "iso-ends", "iso-low", "scalene", "invalid", "invalid-mid"])
def test_classify(sides, kind):
    assert classify(*sides) == kind
''')
