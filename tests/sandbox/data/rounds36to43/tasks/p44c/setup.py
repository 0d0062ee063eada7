open("a23lib/poly44.py", "w").write('''"""Polylines in the plane."""
import math
from dataclasses import dataclass


@dataclass
class Polyline:
    points: list

    def segment_lengths(self):
        return [math.dist(a, b) for a, b in zip(self.points, self.points[1:])]

    def length(self):
        return sum(self.segment_lengths())

    def trimmed(self, max_len):
        """The leading part of the line whose length stays within max_len."""
        kept, total = [self.points[0]], 0.0
        for p, d in zip(self.points[1:], self.segment_lengths()):
            if total + d > max_len:
                break
            kept.append(p)
            total += d
        return Polyline(kept)
''')
open("tests/test_poly44.py", "w").write('''from a23lib.poly44 import Polyline


def test_trimmed():
    assert Polyline([(0, 0), (3, 4), (3, 10)]).trimmed(5) == Polyline([(0, 0), (3, 4)])


def test_length():
    assert Polyline([(0, 0), (1, 0), (1, 2)]).length() == 3
''')
