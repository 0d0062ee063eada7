open("a23lib/geom.py", "w").write('''"""Plane geometry values."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass(frozen=True)
class Segment:
    start: Point
    end: Point


def scale(seg, k):
    """`seg` with both ends scaled by `k` about the origin."""
    return Segment(Point(seg.start.x * k, seg.start.y * k), Point(seg.end.x * k, seg.end.y * k))
''')
open("tests/test_geom.py", "w").write('''from a23lib.geom import Point, Segment, scale


def test_scale():
    assert scale(Segment(Point(1, 2), Point(3, 4)), 2) == Segment(Point(2, 4), Point(6, 8))


def test_scale_one():
    assert scale(Segment(Point(1, 2), Point(3, 4)), 1) == Segment(Point(1, 2), Point(3, 4))
''')
