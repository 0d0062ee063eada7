open("a23lib/geom.py", "w").write('''"""Plane geometry."""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: float
    y: float


ORIGIN = Point(0.0, 0.0)


def rotate(p, degrees, about=ORIGIN):
    """`p` turned counter-clockwise by `degrees` about `about`, to 9 places."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    dx, dy = p.x - about.x, p.y - about.y
    return Point(round(about.x + dx * c - dy * s, 9) + 0.0, round(about.y + dx * s + dy * c, 9) + 0.0)
''')
open("tests/test_geom.py", "w").write('''from a23lib.geom import Point, rotate


class TestRotate:
    def test_quarter_turn(self):
        want = Point(0.0, 1.0)
        assert rotate(Point(1, 0), 90) == want

    def test_about_centre(self):
        want = Point(2.0, 3.0)
        assert rotate(Point(3, 2), 90, about=Point(2, 2)) == want

    def test_half_turn_about(self):
        want = Point(1.0, 2.0)
        assert rotate(Point(3, 2), 180, about=Point(2, 2)) == want
''')
