open("a23lib/poly.py", "w").write('''"""Polygons ordered by area."""
import functools


@functools.total_ordering
class Polygon:
    def __init__(self, points):
        self.points = [(float(x), float(y)) for x, y in points]

    def area(self):
        """Shoelace formula; the vertices may run either way round."""
        pts = self.points
        twice = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
        return abs(twice) / 2

    def __eq__(self, other):
        return self.area() == other.area()

    def __lt__(self, other):
        return self.area() < other.area()
''')
open("tests/test_poly.py", "w").write('''import math

from a23lib.poly import Polygon


def circle(r, n, clockwise=False):
    step = -2 * math.pi / n if clockwise else 2 * math.pi / n
    return [(r * math.cos(i * step), r * math.sin(i * step)) for i in range(n)]


def test_clockwise_traced_outline():
    traced = Polygon(circle(10, 25000, clockwise=True))
    assert traced > Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])


def test_square():
    assert Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]) > Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
''')
