import os
FILES = {'a23lib/geo.py': '"""Points."""\n\n\nclass Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n    def __eq__(self, other):\n        if not isinstance(other, Point):\n            return NotImplemented\n        return (self.x, self.y) == (other.x, other.y)\n\n    __hash__ = None\n\n    def __repr__(self):\n        return f"Point({self.x}, {self.y})"\n\n\ndef midpoint(a, b):\n    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)\n', 'tests/helpers.py': 'def assert_same_point(got, want):\n    assert got == want, f"{got!r} != {want!r}"\n', 'tests/test_geo.py': 'from a23lib.geo import Point, midpoint\nfrom tests.helpers import assert_same_point\n\n\ndef test_midpoint():\n    assert_same_point(midpoint(Point(0, 0), Point(4, 6)), Point(2, 3))\n\n\ndef test_midpoint_same():\n    assert midpoint(Point(1, 1), Point(1, 1)).x == 1\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(s)
