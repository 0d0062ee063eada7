open("a23lib/vec.py", "w").write('''"""2-D vectors."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Vec:
    x: int
    y: int

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)


def add(a, b):
    """The sum of two vectors."""
    return a + b
''')
open("tests/test_vec.py", "w").write('''import pytest

from a23lib.vec import Vec, add


@pytest.mark.parametrize("a,b,want", [
    (Vec(1, 2), Vec(3, 4), Vec(4, 6)),
    (Vec(-1, 0), Vec(5, 7), Vec(4, 7)),
])
def test_add(a, b, want):
    assert add(a, b) == want


def test_zero():
    assert add(Vec(0, 0), Vec(0, 0)) == Vec(0, 0)
''')
