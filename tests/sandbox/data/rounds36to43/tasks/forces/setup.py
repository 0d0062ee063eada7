open("a23lib/forces.py", "w").write('''"""Forces on a body in the plane."""
import math


class Vector:
    """A 2-d vector: unpacks as (x, y); false when it is the zero vector."""

    def __init__(self, x=0.0, y=0.0):
        self.x, self.y = float(x), float(y)

    def __iter__(self):
        return iter((self.x, self.y))

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __bool__(self):
        return bool(abs(self))

    def __repr__(self):
        return "Vector(%r, %r)" % (self.x, self.y)


def net_force(forces):
    """The sum of the (x, y) forces, as a Vector."""
    x = sum(f[0] for f in forces)
    y = sum(f[1] for f in forces)
    return Vector(x, y)
''')
open("tests/test_forces.py", "w").write('''from a23lib.forces import net_force


def test_sum():
    assert net_force([(1, 2), (3, 4)]) == (4, 6)


def test_cancel():
    assert not net_force([(1, 0), (-1, 0), (0, 2), (0, -2)])
''')
